package dev.tributary.node.nativeproto;

import com.datastax.oss.protocol.internal.Message;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import com.datastax.oss.protocol.internal.ProtocolConstants.SchemaChangeTarget;
import com.datastax.oss.protocol.internal.ProtocolConstants.SchemaChangeType;
import com.datastax.oss.protocol.internal.request.AuthResponse;
import com.datastax.oss.protocol.internal.request.Batch;
import com.datastax.oss.protocol.internal.request.Execute;
import com.datastax.oss.protocol.internal.request.Options;
import com.datastax.oss.protocol.internal.request.Prepare;
import com.datastax.oss.protocol.internal.request.Query;
import com.datastax.oss.protocol.internal.request.Register;
import com.datastax.oss.protocol.internal.request.Startup;
import com.datastax.oss.protocol.internal.request.query.QueryOptions;
import com.datastax.oss.protocol.internal.response.Ready;
import com.datastax.oss.protocol.internal.response.Supported;
import com.datastax.oss.protocol.internal.response.error.Unprepared;
import com.datastax.oss.protocol.internal.response.result.ColumnSpec;
import com.datastax.oss.protocol.internal.response.result.DefaultRows;
import com.datastax.oss.protocol.internal.response.result.Prepared;
import com.datastax.oss.protocol.internal.response.result.RowsMetadata;
import com.datastax.oss.protocol.internal.response.result.SchemaChange;
import com.datastax.oss.protocol.internal.response.result.SetKeyspace;
import com.datastax.oss.protocol.internal.response.result.Void;
import dev.tributary.cql.ast.AlterTable;
import dev.tributary.cql.ast.Call;
import dev.tributary.cql.ast.CreateKeyspace;
import dev.tributary.cql.ast.CreateTable;
import dev.tributary.cql.ast.CreateType;
import dev.tributary.cql.ast.DropKeyspace;
import dev.tributary.cql.ast.DropTable;
import dev.tributary.cql.ast.DropType;
import dev.tributary.cql.ast.ModificationStatement;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.Use;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.exec.BindMarkerName;
import dev.tributary.node.exec.ResultColumn;
import dev.tributary.node.exec.SchemaService;
import dev.tributary.node.exec.SessionContext;
import dev.tributary.node.exec.StatementExecutor;
import dev.tributary.node.exec.StatementResult;
import dev.tributary.node.exec.StatementRouting;
import dev.tributary.node.grpc.ClusterStatements;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The native protocol's requests and their answers, without the transport: OPTIONS, STARTUP,
 * REGISTER, QUERY, PREPARE, EXECUTE and BATCH, run through the same {@link StatementExecutor} the
 * gRPC API uses (with its cluster semantics, {@link ClusterStatements}). Every consistency level
 * is accepted: each partition has one owner, whose answer is the answer. A prepared statement's
 * id is a digest of its keyspace and text, so a node that never saw it answers UNPREPARED and the
 * driver prepares it there. Thread-safe.
 */
final class NativeRequests {
    /** The CQL version Cassandra 3.0 reports, which drivers expect with release_version 3.0.8. */
    static final String CQL_VERSION = "3.4.4";
    private static final int PREPARED_CACHE = 4096;

    /** The authenticator drivers are told of: they answer with SASL PLAIN credentials. */
    static final String PASSWORD_AUTHENTICATOR = "org.apache.cassandra.auth.PasswordAuthenticator";

    /** SASL PLAIN ({@code [authzid] NUL user NUL password}), as PasswordAuthenticator reads it. */
    record PlainCredentials(String user, String password) {
        static PlainCredentials decode(java.nio.ByteBuffer token) {
            byte[] b = new byte[token == null ? 0 : token.remaining()];
            if (token != null) {
                token.duplicate().get(b);
            }
            int second = -1;
            int first = -1;
            for (int i = b.length - 1; i >= 0; i--) {
                if (b[i] == 0) {
                    if (second < 0) {
                        second = i;
                    } else {
                        first = i;
                        break;
                    }
                }
            }
            if (second < 0) {
                throw new dev.tributary.node.errors.TributaryException(dev.tributary.node.errors.ErrorCode.UNAUTHENTICATED,
                        "credentials must be SASL PLAIN: [authzid] NUL user NUL password");
            }
            String user = new String(b, first + 1, second - first - 1, java.nio.charset.StandardCharsets.UTF_8);
            String password = new String(b, second + 1, b.length - second - 1, java.nio.charset.StandardCharsets.UTF_8);
            return new PlainCredentials(user, password);
        }

        @Override
        public String toString() {
            return "PlainCredentials[" + user + "]";
        }
    }

    /** An answer and the warnings that go with it. */
    record Response(Message message, List<String> warnings) {
        static Response of(Message m) {
            return new Response(m, List.of());
        }
    }

    /** A statement prepared on this node: its text and the keyspace it was prepared in. */
    private record PreparedText(String text, String keyspace) {
    }

    private final ClusterStatements statements;
    private final Supplier<DictionaryVersion> dictionary;
    private final Map<String, PreparedText> prepared = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedText> eldest) {
            return size() > PREPARED_CACHE;
        }
    });

    private final dev.tributary.node.auth.AccessControl access;

    NativeRequests(ClusterStatements statements, Supplier<DictionaryVersion> dictionary,
            dev.tributary.node.auth.AccessControl access) {
        this.statements = statements;
        this.dictionary = dictionary;
        this.access = access;
    }

    Response handle(Message m, NativeSession session) {
        int consistency = consistencyOf(m);
        try {
            if (m instanceof Options) {
                return Response.of(new Supported(Map.of("CQL_VERSION", List.of(CQL_VERSION), "COMPRESSION", List.of(),
                        "PROTOCOL_VERSIONS", List.of("4/v4"))));
            }
            if (m instanceof Startup st) {
                String compression = st.options.get(Startup.COMPRESSION_KEY);
                if (compression != null && !compression.isEmpty()) {
                    return Response.of(NativeErrors.protocolError("compression " + compression
                            + " is not supported; connect without compression"));
                }
                if (access.authenticates()) {
                    session.awaitCredentials();
                    return Response.of(new com.datastax.oss.protocol.internal.response.Authenticate(PASSWORD_AUTHENTICATOR));
                }
                session.start(null);
                return Response.of(new Ready());
            }
            if (m instanceof AuthResponse a) {
                if (!access.authenticates()) {
                    return Response.of(NativeErrors.protocolError("this node does not authenticate (allow-all): send no AUTH_RESPONSE"));
                }
                if (!session.awaitingCredentials()) {
                    return Response.of(NativeErrors.protocolError("send STARTUP before AUTH_RESPONSE"));
                }
                PlainCredentials c = PlainCredentials.decode(a.token);
                session.start(access.login(c.user(), c.password()));
                return Response.of(new com.datastax.oss.protocol.internal.response.AuthSuccess(null));
            }
            if (!session.started()) {
                return Response.of(NativeErrors.protocolError(session.awaitingCredentials()
                        ? "authenticate (AUTH_RESPONSE with a role's name and password) before "
                                + m.getClass().getSimpleName().toUpperCase()
                        : "send STARTUP before " + m.getClass().getSimpleName().toUpperCase()));
            }
            if (m instanceof Register r) {
                session.register(r.eventTypes);
                return Response.of(new Ready());
            }
            if (m instanceof Query q) {
                return query(q.query, q.options, session);
            }
            if (m instanceof Prepare p) {
                return prepare(p, session);
            }
            if (m instanceof Execute e) {
                PreparedText t = prepared.get(HexFormat.of().formatHex(e.queryId));
                if (t == null) {
                    return Response.of(new Unprepared("statement 0x" + HexFormat.of().formatHex(e.queryId)
                            + " is not prepared on this node; prepare it again", e.queryId));
                }
                SessionContext s = t.keyspace() == null ? session.context() : session.context().withKeyspace(t.keyspace());
                return run(t.text(), statements.executor().prepare(t.text(), s), s, e.options, session);
            }
            if (m instanceof Batch b) {
                return batch(b, session);
            }
            return Response.of(NativeErrors.protocolError("unexpected message " + m.getClass().getSimpleName()
                    + " from a client"));
        } catch (RuntimeException e) {
            return Response.of(NativeErrors.toError(e, consistency));
        }
    }

    private static int consistencyOf(Message m) {
        if (m instanceof Query q) {
            return q.options.consistency;
        }
        if (m instanceof Execute e) {
            return e.options.consistency;
        }
        if (m instanceof Batch b) {
            return b.consistency;
        }
        return ProtocolConstants.ConsistencyLevel.ONE;
    }

    private Response query(String text, QueryOptions o, NativeSession session) {
        SessionContext s = o.keyspace == null ? session.context() : session.context().withKeyspace(o.keyspace);
        return run(text, statements.executor().prepare(text, s), s, o, session);
    }

    private Response prepare(Prepare req, NativeSession session) {
        SessionContext s = req.keyspace == null ? session.context() : session.context().withKeyspace(req.keyspace);
        StatementExecutor.Prepared p = statements.executor().prepare(req.cqlQuery, s);
        byte[] id = digest(List.of((s.keyspace() == null ? "" : s.keyspace()) + "\0" + req.cqlQuery));
        prepared.put(HexFormat.of().formatHex(id), new PreparedText(req.cqlQuery, s.keyspace()));
        Optional<StatementRouting> routing = statements.executor().routing(p, s);
        Table target = routing.map(r -> new Table(r.keyspace(), r.table())).orElseGet(() -> target(p.statement(), s));
        List<ColumnSpec> variables = specs(target, p.markers());
        int[] pk = routing.map(r -> r.partitionKeyIndexes().stream().mapToInt(Integer::intValue).toArray()).orElse(new int[0]);
        // a SELECT's columns are known once it runs: no result metadata here, so drivers ask for it with each EXECUTE
        return Response.of(new Prepared(id, null, new RowsMetadata(variables, null, pk, null),
                new RowsMetadata(0, null, new int[0], null)));
    }

    private Response batch(Batch b, NativeSession session) {
        SessionContext s = b.keyspace == null ? session.context() : session.context().withKeyspace(b.keyspace);
        List<StatementExecutor.Prepared> items = new ArrayList<>();
        List<List<Object>> bound = new ArrayList<>();
        for (int i = 0; i < b.queriesOrIds.size(); i++) {
            Object q = b.queriesOrIds.get(i);
            StatementExecutor.Prepared p;
            if (q instanceof String text) {
                p = statements.executor().prepare(text, s);
            } else {
                byte[] id = (byte[]) q;
                PreparedText t = prepared.get(HexFormat.of().formatHex(id));
                if (t == null) {
                    return Response.of(new Unprepared("batch statement " + (i + 1) + " (0x" + HexFormat.of().formatHex(id)
                            + ") is not prepared on this node; prepare it again", id));
                }
                p = statements.executor().prepare(t.text(), t.keyspace() == null ? s : s.withKeyspace(t.keyspace()));
            }
            items.add(p);
            bound.add(bind(p, b.values.get(i), Map.of()));
        }
        statements.executeBatch(items, bound, s);
        return Response.of(Void.INSTANCE);
    }

    private Response run(String text, StatementExecutor.Prepared p, SessionContext s, QueryOptions o, NativeSession session) {
        List<Object> bound = bind(p, o.positionalValues, o.namedValues);
        DictionaryVersion before = dictionary.get();
        Statement st = p.statement();
        StatementResult r = statements.execute(p, s, bound);
        if (st instanceof Use || st instanceof Call) {
            session.update(r.session()); // USE and dbms_streams.set_tag change the connection's session
        }
        if (st instanceof Use u) {
            return Response.of(new SetKeyspace(u.keyspace()));
        }
        Optional<SchemaChange> change = schemaChange(st, s);
        if (change.isPresent()) {
            // IF [NOT] EXISTS that changed nothing: no schema change to report
            return Response.of(dictionary.get() == before ? Void.INSTANCE : change.get());
        }
        if (!r.hasRows()) {
            return new Response(Void.INSTANCE, r.warnings());
        }
        return new Response(page(text, s, o, p, r), r.warnings());
    }

    /** The page of a result the request asks for, with the paging state of the next one if any. */
    private DefaultRows page(String text, SessionContext s, QueryOptions o, StatementExecutor.Prepared p, StatementResult r) {
        List<ByteBuffer> raw = new ArrayList<>(o.positionalValues);
        new TreeMap<>(o.namedValues).forEach((k, v) -> raw.add(v));
        List<String> parts = new ArrayList<>(List.of(s.keyspace() == null ? "" : s.keyspace(), text));
        for (ByteBuffer v : raw) {
            parts.add(v == null ? "\u0000null" : HexFormat.of().formatHex(bytes(v)));
        }
        byte[] digest = digest(parts);
        int rows = r.rows().size();
        int offset = o.pagingState == null ? 0 : PagingState.decode(o.pagingState, digest).offset();
        int end = o.pageSize > 0 ? (int) Math.min(rows, (long) offset + o.pageSize) : rows;
        ByteBuffer next = end < rows ? new PagingState(end, digest).encode() : null;
        Queue<List<ByteBuffer>> data = new ArrayDeque<>(Math.max(0, end - offset));
        for (int i = Math.min(offset, rows); i < end; i++) {
            List<Object> row = r.rows().get(i);
            List<ByteBuffer> cells = new ArrayList<>(row.size());
            for (int c = 0; c < row.size(); c++) {
                cells.add(NativeValues.encode(r.columns().get(c).type(), row.get(c)));
            }
            data.add(cells);
        }
        RowsMetadata md = o.skipMetadata ? new RowsMetadata(r.columns().size(), next, new int[0], null)
                : new RowsMetadata(specs(target(p.statement(), s), r.columns()), next, new int[0], null);
        return new DefaultRows(md, data);
    }

    /** The keyspace and table result and variable columns name; empty names where there is none. */
    private record Table(String keyspace, String table) {
    }

    private static Table target(Statement st, SessionContext s) {
        QualifiedName n = null;
        if (st instanceof Select sel) {
            n = sel.from();
        } else if (st instanceof ModificationStatement m) {
            n = m.table();
        }
        if (n == null) {
            return new Table(s.keyspace() == null ? "" : s.keyspace(), "");
        }
        return new Table(n.keyspace() != null ? n.keyspace() : s.keyspace() == null ? "" : s.keyspace(), n.name());
    }

    private static List<ColumnSpec> specs(Table t, List<ResultColumn> columns) {
        List<ColumnSpec> out = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            out.add(new ColumnSpec(t.keyspace(), t.table(), columns.get(i).name(), i, NativeValues.rawType(columns.get(i).type())));
        }
        return out;
    }

    /** The request's values in the order of the statement's markers, by position or by name. */
    private static List<Object> bind(StatementExecutor.Prepared p, List<ByteBuffer> positional, Map<String, ByteBuffer> named) {
        List<ResultColumn> markers = p.markers();
        List<Object> out = new ArrayList<>();
        if (!named.isEmpty()) {
            for (int i = 0; i < markers.size(); i++) {
                ResultColumn c = markers.get(i);
                if (!named.containsKey(c.name())) {
                    throw new InvalidRequestException("no value for bind marker " + (i + 1) + " (" + c.name()
                            + "); the request names " + new TreeMap<>(named).keySet());
                }
                out.add(NativeValues.decode(c.type(), named.get(c.name()), new BindMarkerName(i + 1, c.name())));
            }
            return out;
        }
        for (int i = 0; i < positional.size(); i++) {
            if (i < markers.size()) {
                ResultColumn c = markers.get(i);
                out.add(NativeValues.decode(c.type(), positional.get(i), new BindMarkerName(i + 1, c.name())));
            } else {
                out.add(null); // too many values: the executor reports the count mismatch
            }
        }
        return out;
    }

    /** The SCHEMA_CHANGE result a DDL statement gives, if it is one. */
    static Optional<SchemaChange> schemaChange(Statement st, SessionContext s) {
        if (st instanceof CreateKeyspace ck) {
            return Optional.of(new SchemaChange(SchemaChangeType.CREATED, SchemaChangeTarget.KEYSPACE, ck.name(), null, List.of()));
        }
        if (st instanceof DropKeyspace dk) {
            return Optional.of(new SchemaChange(SchemaChangeType.DROPPED, SchemaChangeTarget.KEYSPACE, dk.name(), null, List.of()));
        }
        if (st instanceof CreateTable ct) {
            return Optional.of(change(SchemaChangeType.CREATED, SchemaChangeTarget.TABLE, ct.name(), s));
        }
        if (st instanceof AlterTable at) {
            return Optional.of(change(SchemaChangeType.UPDATED, SchemaChangeTarget.TABLE, at.name(), s));
        }
        if (st instanceof DropTable dt) {
            return Optional.of(change(SchemaChangeType.DROPPED, SchemaChangeTarget.TABLE, dt.name(), s));
        }
        if (st instanceof CreateType ct) {
            return Optional.of(change(SchemaChangeType.CREATED, SchemaChangeTarget.TYPE, ct.name(), s));
        }
        if (st instanceof DropType dt) {
            return Optional.of(change(SchemaChangeType.DROPPED, SchemaChangeTarget.TYPE, dt.name(), s));
        }
        return Optional.empty();
    }

    private static SchemaChange change(String type, String target, QualifiedName n, SessionContext s) {
        return new SchemaChange(type, target, SchemaService.keyspace(n, s), n.name(), List.of());
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** 16 bytes of SHA-256 over the parts (prepared ids, paging-state guards). */
    static byte[] digest(List<String> parts) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String p : parts) {
                byte[] b = p.getBytes(StandardCharsets.UTF_8);
                md.update(ByteBuffer.allocate(4).putInt(b.length).array());
                md.update(b);
            }
            byte[] out = new byte[PagingState.DIGEST_BYTES];
            System.arraycopy(md.digest(), 0, out, 0, out.length);
            return out;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
