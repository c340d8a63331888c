package dev.tributary.deploy;

import dev.tributary.client.ResultSet;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.TributaryException;
import java.time.Duration;
import java.util.List;

/**
 * {@code tributary admin --connect HOST:PORT <command>}: operator commands, as ScyllaDB's
 * nodetool. {@code check-and-repair-cdc-streams} makes a new CDC generation over the current ring;
 * {@code decommission} takes the node asked out of the cluster; {@code removenode HOST_ID} replaces
 * a node gone for good in its replica groups.
 */
final class AdminCommand {
    static final String USAGE = """
            usage: tributary admin --connect HOST:PORT <command>

            commands:
              check-and-repair-cdc-streams   create a new CDC generation over the current ring, a ring delay ahead
              decommission                   the node asked hands its ranges, rows and CDC log to the others,
                                             leaves the cluster and stops (a new generation leaves it out)
              removenode HOST_ID             a node that is gone for good leaves its replica groups; a node
                                             holding few replicas takes its place in each (needs replication)

            --tls-ca FILE, --tls-client-cert FILE, --tls-client-key FILE: TLS to the node, as for tributary cql
            """;

    private final Terminal terminal;
    private final ClientFactory clients;

    AdminCommand(Terminal terminal, ClientFactory clients) {
        this.terminal = terminal;
        this.clients = clients;
    }

    int run(List<String> args) {
        if (args.contains("--help") || args.contains("-h")) {
            terminal.out().print(USAGE);
            return Tributary.OK;
        }
        String command = args.size() >= 3 ? args.get(2) : "";
        int expected = command.equals("removenode") ? 4 : 3;
        if (args.size() != expected || !args.get(0).equals("--connect")) {
            terminal.err().print(USAGE);
            return Tributary.USAGE;
        }
        if (!command.equals("check-and-repair-cdc-streams") && !command.equals("decommission") && !command.equals("removenode")) {
            terminal.err().println("tributary admin: unknown command '" + command + "'");
            terminal.err().print(USAGE);
            return Tributary.USAGE;
        }
        // a decommission waits a ring delay (60 s by default) after handing its data over
        try (TributaryClient c = clients.connect(List.of(args.get(1)), Duration.ofMinutes(10), "admin")) {
            if (command.equals("removenode")) {
                ResultSet r = c.execute("CALL system.removenode(host_id => '" + args.get(3).replace("'", "''") + "')");
                terminal.out().println("node " + args.get(3) + " removed from " + r.size() + " replica group(s); "
                        + "their other members bring them back to their replication factor");
            } else if (command.equals("decommission")) {
                dev.tributary.client.Row r = c.execute("CALL system.decommission()").one();
                terminal.out().println("node " + r.getUuid("host_id") + " decommissioned: " + r.getLong("moved")
                        + " rows and log entries handed over; new CDC generation at " + r.getInstant("generation"));
            } else {
                ResultSet r = c.execute("CALL system.check_and_repair_cdc_streams()");
                terminal.out().println("new CDC generation at " + r.one().getInstant("generation"));
            }
            return Tributary.OK;
        } catch (TributaryException e) {
            terminal.err().println("tributary admin: " + e.getMessage());
            return Tributary.FAILED;
        }
    }
}
