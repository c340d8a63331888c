package dev.tributary.deploy;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The option table of {@code tributary admin}: picocli reads the command line into it and writes the help from it. */
@Command(name = "tributary admin", synopsisHeading = "usage: ", sortOptions = false, optionListHeading = "%noptions:%n",
        customSynopsis = "tributary admin --connect HOST:PORT [--user ROLE [--password P]] <command>",
        descriptionHeading = "%n", description = {"commands:",
            "  status                         every node with its state (UN, DN, UJ, UL as in nodetool), load,",
            "                                 tokens and host id",
            "  operations                     long operations (instantiate_table copies, decommission hand-overs)",
            "                                 on every node, running and last finished, with a progress bar,",
            "                                 done/total, rate and ETA (system_views.operations)",
            "  check-and-repair-cdc-streams   create a new CDC generation over the current ring, a ring delay",
            "                                 ahead",
            "  decommission                   the node asked hands its ranges, rows and CDC log to the others,",
            "                                 leaves the cluster and stops (a new generation leaves it out)",
            "  removenode HOST_ID             a node that is gone for good leaves its replica groups; a node",
            "                                 holding few replicas takes its place in each (needs replication)"})
final class AdminOptions implements ClientCommand.Options {
    @Option(names = "--connect", paramLabel = "HOST:PORT", description = "the node to ask")
    String connect;

    @Parameters(paramLabel = "<command> [HOST_ID]", arity = "0..2", hidden = true)
    List<String> words = new ArrayList<>();

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Option(names = {"-h", "--help"}, order = 30, usageHelp = true, description = "print this help")
    boolean help;

    static final String USAGE = DeployCli.usage(new AdminOptions());

    /** @throws UsageException naming the option that is malformed */
    static AdminOptions parse(List<String> args) throws UsageException {
        AdminOptions o = new AdminOptions();
        DeployCli.parse(o, args);
        return o;
    }

    @Override
    public boolean help() {
        return help;
    }

    @Override
    public ConnectionOptions connection() {
        return connection;
    }

    /** The command word; empty when none was given. */
    String command() {
        return words.isEmpty() ? "" : words.get(0);
    }

    /** Whether the connection and the words after the command are all there: removenode takes a host id, the others nothing. */
    boolean complete() {
        int expected = command().equals("removenode") ? 2 : 1;
        return connect != null && words.size() == expected;
    }
}
