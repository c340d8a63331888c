package dev.tributary.node.transport;

import dev.tributary.capture.RedoSource;
import dev.tributary.node.capture.DownstreamSources;
import dev.tributary.node.coord.TransportSettings;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.protocol.v1.AdminArgument;
import dev.tributary.protocol.v1.AdminCallRequest;
import dev.tributary.protocol.v1.AdminServiceGrpc;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import dev.tributary.protocol.v1.Value;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The other databases a downstream capture mines: their redo as log transport delivered it
 * ({@link ReceivedLogs}), and the databases themselves through the database link named as their
 * global name, called over the CQL and Admin services of that cluster. A link is checked to lead
 * to the database it is named after before anything runs there. Thread-safe.
 */
public final class SourceDatabases implements DownstreamSources {
    private static final long RPC_SECONDS = 30;

    private final ReceivedLogs received;
    private final Function<String, Optional<TransportSettings.Link>> links;
    private final LinkCalls calls;

    /** @param links the database links by name (TransportSettings#link) */
    public SourceDatabases(ReceivedLogs received, Function<String, Optional<TransportSettings.Link>> links,
            LinkCalls calls) {
        this.calls = calls;
        this.received = received;
        this.links = links;
    }

    @Override
    public RedoSource redo(String sourceDatabase) {
        return received.source(sourceDatabase);
    }

    @Override
    public boolean passedWithoutBuild(String sourceDatabase, long scn) {
        return received.passedWithoutBuild(sourceDatabase, scn);
    }

    @Override
    public Optional<SourceLink> link(String sourceDatabase) {
        return links.apply(sourceDatabase.toLowerCase(Locale.ROOT)).map(l -> {
            if (l.jdbc()) {
                throw new InvalidRequestException("database link " + l.name() + " leads to a JDBC database, not to the "
                        + "Tributary cluster " + sourceDatabase.toUpperCase(Locale.ROOT) + " a downstream capture mines");
            }
            return new Linked(l, sourceDatabase.toUpperCase(Locale.ROOT));
        });
    }


    private final class Linked implements SourceLink {
        private final TransportSettings.Link link;
        private final String source;

        Linked(TransportSettings.Link link, String source) {
            this.link = link;
            this.source = source;
        }

        private <T> T call(String what, Function<io.grpc.Channel, T> f) {
            return calls.call(link, what + " at " + source, f);
        }

        private Row database() {
            ExecuteResponse r = call("reading system_views.database", ch -> CqlServiceGrpc.newBlockingStub(ch)
                    .withDeadlineAfter(RPC_SECONDS, TimeUnit.SECONDS).execute(ExecuteRequest.newBuilder()
                            .setStatement("SELECT global_name, current_scn FROM system_views.database").build()));
            Row row = r.getRows(0);
            String name = row.getValues(0).getText();
            if (!name.equalsIgnoreCase(source)) {
                throw new InvalidRequestException("database link " + link.name() + " leads to " + name.toUpperCase(Locale.ROOT) + ", not to "
                        + source + ": a downstream capture reaches its source through the link named as the source's "
                        + "global name");
            }
            return row;
        }

        @Override
        public long currentScn() {
            return database().getValues(1).getInteger();
        }

        @Override
        public long build() {
            database();
            ExecuteResponse r = admin("dbms_capture_adm.build", List.of());
            return r.getRows(0).getValues(0).getInteger();
        }

        @Override
        public void prepare(String object) {
            database();
            if (object.equals("*")) {
                admin("dbms_capture_adm.prepare_global_instantiation", List.of());
            } else if (object.endsWith(".*")) {
                admin("dbms_capture_adm.prepare_schema_instantiation",
                        List.of(arg("schema_name", object.substring(0, object.length() - 2))));
            } else {
                admin("dbms_capture_adm.prepare_table_instantiation", List.of(arg("table_name", object)));
            }
        }

        private ExecuteResponse admin(String procedure, List<AdminArgument> args) {
            return call(procedure, ch -> AdminServiceGrpc.newBlockingStub(ch).withDeadlineAfter(RPC_SECONDS, TimeUnit.SECONDS)
                    .call(AdminCallRequest.newBuilder().setProcedure(procedure).addAllArguments(args).build()));
        }
    }

    private static AdminArgument arg(String name, String value) {
        return AdminArgument.newBuilder().setName(name).setValue(Value.newBuilder().setText(value)).build();
    }
}
