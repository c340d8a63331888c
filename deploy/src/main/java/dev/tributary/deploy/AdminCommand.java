package dev.tributary.deploy;

import dev.tributary.client.ResultSet;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.TributaryException;
import java.time.Duration;
import java.util.List;

/**
 * {@code tributary admin --connect HOST:PORT <command>}: operator commands, as ScyllaDB's
 * nodetool. {@code status} lists the nodes with their state and load; {@code check-and-repair-cdc-streams} makes a new CDC generation over the current ring;
 * {@code decommission} takes the node asked out of the cluster; {@code removenode HOST_ID} replaces
 * a node gone for good in its replica groups.
 */
final class AdminCommand extends ClientCommand<AdminOptions> {
    /** What {@link #run} accepts; the launcher's and this command's help name each (a test holds them to it). */
    static final List<String> COMMANDS = List.of("status", "operations", "check-and-repair-cdc-streams", "decommission",
            "removenode");

    static final String USAGE = AdminOptions.USAGE;

    /** @param env the environment ($TRIBUTARY_PASSWORD), replaceable in tests */
    AdminCommand(Terminal terminal, ClientFactory clients, java.util.function.Function<String, String> env) {
        super("admin", USAGE, terminal, clients, env);
    }

    @Override
    AdminOptions parse(List<String> args) throws UsageException {
        return AdminOptions.parse(args);
    }

    @Override
    int run(AdminOptions o, ClientFactory connector) {
        String command = o.command();
        if (!o.complete()) {
            terminal.err().print(USAGE);
            return Tributary.USAGE;
        }
        if (!COMMANDS.contains(command)) {
            terminal.err().println("tributary admin: unknown command '" + command + "'");
            terminal.err().print(USAGE);
            return Tributary.USAGE;
        }
        // a decommission waits a ring delay (60 s by default) after handing its data over
        try (TributaryClient c = connector.connect(List.of(o.connect), Duration.ofMinutes(10), "admin")) {
            if (command.equals("status")) {
                status(c);
            } else if (command.equals("operations")) {
                operations(c);
            } else if (command.equals("removenode")) {
                ResultSet r = c.execute("CALL system.removenode(host_id => '" + o.words.get(1).replace("'", "''") + "')");
                terminal.out().println("node " + o.words.get(1) + " removed from " + r.size() + " replica group(s); "
                        + "their other members bring them back to their replication factor");
            } else if (command.equals("decommission")) {
                dev.tributary.client.Row r = OperationProgress.await(terminal, c, "decommission",
                        () -> c.execute("CALL system.decommission()").one());
                terminal.out().println("node " + r.getUuid("host_id") + " decommissioned: " + r.getLong("moved")
                        + " rows and log entries handed over; new CDC generation at " + r.getInstant("generation"));
            } else {
                ResultSet r = c.execute("CALL system.check_and_repair_cdc_streams()");
                terminal.out().println("new CDC generation at " + r.one().getInstant("generation"));
            }
            return Tributary.OK;
        } catch (TributaryException e) {
            terminal.err().println(CqlCommand.errorLine(e));
            return Tributary.FAILED;
        }
    }

    /** One node of {@code status}. */
    private record NodeLine(String state, String address, String load, int tokens, String hostId) {
    }

    /** As nodetool status: every node the one asked knows, its state, load (from the live nodes), tokens and host id. */
    private void status(TributaryClient c) {
        java.util.Map<java.util.UUID, Long> loads = new java.util.HashMap<>();
        try {
            for (dev.tributary.client.Row r : c.execute("SELECT host_id, load FROM system_views.disk_usage").all()) {
                loads.put(r.getUuid("host_id"), r.getLong("load"));
            }
        } catch (dev.tributary.client.errors.UnavailableException e) {
            // a node just lost is still listed live until its session expires: no loads, the states still
            terminal.err().println("loads unknown: " + e.getMessage());
        }
        List<NodeLine> lines = new java.util.ArrayList<>();
        for (dev.tributary.client.Row r : c.execute("SELECT host_id, endpoint, state, tokens FROM system_views.nodes").all()) {
            Long load = loads.get(r.getUuid("host_id"));
            String endpoint = r.getString("endpoint");
            // a node that is down left no endpoint behind (it is published while the node runs)
            lines.add(new NodeLine(stateCode(r.getString("state")), endpoint.isEmpty() ? "?" : endpoint,
                    load == null ? "?" : bytes(load),
                    r.getInt("tokens"), r.getUuid("host_id").toString()));
        }
        lines.sort(java.util.Comparator.comparing((NodeLine l) -> l.address().equals("?")).thenComparing(NodeLine::address));
        java.io.PrintStream out = terminal.out();
        out.println("Datacenter: datacenter1");
        out.println("=======================");
        out.println("Status=Up/Down");
        out.println("|/ State=Normal/Leaving/Joining/Moving");
        out.printf("%-3s %-22s %-11s %-7s %s%n", "--", "Address", "Load", "Tokens", "Host ID");
        for (NodeLine l : lines) {
            out.printf("%-3s %-22s %-11s %-7d %s%n", l.state(), l.address(), l.load(), l.tokens(), l.hostId());
        }
    }

    /** One line per operation, oldest first; "no operations" when there is none. */
    private void operations(TributaryClient c) {
        List<dev.tributary.client.Row> rows = new java.util.ArrayList<>(c.execute("SELECT host_id, operation_id, kind, target, "
                + "state, unit, done, total, rate_per_second, eta_seconds, started FROM system_views.operations").all());
        if (rows.isEmpty()) {
            terminal.out().println("no operations");
            return;
        }
        rows.sort(java.util.Comparator.comparing((dev.tributary.client.Row r) -> r.getInstant("started"))
                .thenComparing(r -> r.getLong("operation_id")));
        for (dev.tributary.client.Row r : rows) {
            terminal.out().println(OperationProgress.line(r.getString("state"), r.getString("kind"), r.getString("target"),
                    r.getUuid("host_id").toString(), r.getString("unit"), r.getLong("done"),
                    r.isNull("total") ? null : r.getLong("total"), r.getDouble("rate_per_second"),
                    r.isNull("eta_seconds") ? null : r.getLong("eta_seconds")));
        }
    }

    /** nodetool's two letters: Up or Down, then Normal, Joining or Leaving. */
    static String stateCode(String state) {
        return switch (state == null ? "" : state) {
            case "NORMAL" -> "UN";
            case "JOINING" -> "UJ";
            case "LEAVING" -> "UL";
            default -> "DN";
        };
    }

    /** Bytes as nodetool prints a load: {@code 12.3 KiB}. */
    static String bytes(long n) {
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? n + " bytes" : String.format(java.util.Locale.ROOT, "%.2f %s", v, units[u]);
    }
}
