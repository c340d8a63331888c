package dev.tributary.kafka;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The connector's settings (docs/KAFKA.md, "A connector configuration"), each with its key, default and validator in
 * one place, so the worker's REST API ({@code PUT /connector-plugins/.../config/validate}) names
 * the bad setting and why. Immutable once parsed.
 */
public final class TributaryConnectorConfig extends AbstractConfig {
    public static final String ENDPOINTS = "tributary.endpoints";
    public static final String TABLES = "tributary.tables";
    public static final String QUEUE = "tributary.queue";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String SNAPSHOT_MODE = "snapshot.mode";
    public static final String SNAPSHOT_FETCH_SIZE = "snapshot.fetch.size";
    public static final String START = "tributary.start";
    public static final String USER = "tributary.user";
    public static final String PASSWORD = "tributary.password";
    public static final String TLS_CA = "tributary.tls.ca";
    public static final String TLS_CERT = "tributary.tls.cert";
    public static final String TLS_KEY = "tributary.tls.key";
    public static final String REQUEST_TIMEOUT_MS = "tributary.request.timeout.ms";
    public static final String REFRESH_INTERVAL_MS = "tributary.refresh.interval.ms";
    public static final String READ_BATCH = "tributary.read.batch";
    public static final String TOMBSTONES_ON_DELETE = "tombstones.on.delete";
    public static final String INCLUDE_SCHEMA_CHANGES = "include.schema.changes";
    public static final String MAX_QUEUE_SIZE = "max.queue.size";
    public static final String MAX_BATCH_SIZE = "max.batch.size";
    public static final String POLL_INTERVAL_MS = "poll.interval.ms";

    public static final String SNAPSHOT_NEVER = "never";
    public static final String SNAPSHOT_INITIAL = "initial";
    public static final String START_EARLIEST = "earliest";
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
    public static final long DEFAULT_REFRESH_INTERVAL_MS = 5_000;
    public static final int DEFAULT_READ_BATCH = 256;
    public static final int DEFAULT_SNAPSHOT_FETCH_SIZE = 1024;
    public static final int DEFAULT_MAX_QUEUE_SIZE = 8192;
    public static final int DEFAULT_MAX_BATCH_SIZE = 2048;
    public static final long DEFAULT_POLL_INTERVAL_MS = 500;

    // Kafka's legal topic characters; the prefix is joined to keyspace and table names with dots
    private static final Pattern TOPIC_CHARS = Pattern.compile("[a-zA-Z0-9._-]+");
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.%]+\\]|[^:\\s\\[\\]]+):\\d{1,5}");
    private static final Pattern TABLE = Pattern.compile("[A-Za-z0-9_]+\\.[A-Za-z0-9_]+");

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(ENDPOINTS, Type.LIST, ConfigDef.NO_DEFAULT_VALUE, listOf(HOST_PORT, "HOST:PORT"), Importance.HIGH,
                    "The nodes to contact first, HOST:PORT (gRPC port), comma separated; the others are found from them.")
            .define(TABLES, Type.LIST, List.of(), listOf(TABLE, "KEYSPACE.TABLE"), Importance.HIGH,
                    "The tables whose CDC logs are read (cdc enabled), KEYSPACE.TABLE, comma separated. "
                            + "Each goes to the topic <topic.prefix>.<keyspace>.<table>.")
            .define(QUEUE, Type.STRING, null, Importance.HIGH,
                    "A capture queue to read instead of tables: the LCRs its capture's rules kept, of every table they "
                            + "name, to the topic <topic.prefix>.<queue>.")
            .define(TOPIC_PREFIX, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, topicPrefixValidator(), Importance.HIGH,
                    "The first part of every topic name, and the connector's logical name in each event's source.name.")
            .define(SNAPSHOT_MODE, Type.STRING, SNAPSHOT_NEVER,
                    ConfigDef.ValidString.in(SNAPSHOT_NEVER, SNAPSHOT_INITIAL), Importance.MEDIUM,
                    "never: stream the CDC log from tributary.start on. initial: first each table's rows, as of one "
                            + "SCN per node, as op=r events (task 0 reads them; the other tasks wait for it), then every "
                            + "change committed after that point, none before it (tributary.start does not apply). Tables "
                            + "only, not a queue.")
            .define(SNAPSHOT_FETCH_SIZE, Type.INT, DEFAULT_SNAPSHOT_FETCH_SIZE, ConfigDef.Range.between(1, 4096),
                    Importance.LOW, "Rows per ReadTableSnapshot message in the initial snapshot (a message keeps the rows "
                            + "of one token together).")
            .define(START, Type.STRING, START_EARLIEST, startValidator(), Importance.MEDIUM,
                    "Where streams without a committed offset start: earliest (everything the CDC log holds) or an "
                            + "ISO-8601 instant such as 2026-12-06T00:00:00Z. A fixed point, so a stream first seen "
                            + "after a restart still starts there.")
            .define(USER, Type.STRING, null, Importance.MEDIUM,
                    "The role to log in as (a cluster with the password authenticator); needs SELECT on each table.")
            .define(PASSWORD, Type.PASSWORD, null, Importance.MEDIUM, "The role's password.")
            .define(TLS_CA, Type.STRING, null, Importance.MEDIUM,
                    "A PEM file of the CA certificates to trust: connects with TLS.")
            .define(TLS_CERT, Type.STRING, null, Importance.LOW,
                    "A PEM certificate chain presented to nodes that ask for client certificates (with tributary.tls.key).")
            .define(TLS_KEY, Type.STRING, null, Importance.LOW, "The PKCS#8 PEM key of tributary.tls.cert.")
            .define(REQUEST_TIMEOUT_MS, Type.LONG, DEFAULT_REQUEST_TIMEOUT_MS, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "How long a request (a schema query, a stream listing) may take, in milliseconds.")
            .define(REFRESH_INTERVAL_MS, Type.LONG, DEFAULT_REFRESH_INTERVAL_MS, ConfigDef.Range.atLeast(100),
                    Importance.LOW, "How often the stream sets are listed again, in milliseconds (a node also says "
                            + "when there is a newer one).")
            .define(READ_BATCH, Type.INT, DEFAULT_READ_BATCH, ConfigDef.Range.between(1, 4096), Importance.LOW,
                    "LCRs per ReadStreams message.")
            .define(TOMBSTONES_ON_DELETE, Type.BOOLEAN, true, Importance.MEDIUM,
                    "Whether a delete event is followed by a tombstone (the key with a null value) for log compaction.")
            .define(INCLUDE_SCHEMA_CHANGES, Type.BOOLEAN, true, Importance.MEDIUM,
                    "Whether the DDL of the tables read (ALTER TABLE, TRUNCATE, DROP TABLE) goes to the schema-change "
                            + "topic, named topic.prefix as Debezium names it, with the value schema version it leads to.")
            .define(MAX_QUEUE_SIZE, Type.INT, DEFAULT_MAX_QUEUE_SIZE, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "Events a task holds between reading and the worker's poll; reading pauses when it is full.")
            .define(MAX_BATCH_SIZE, Type.INT, DEFAULT_MAX_BATCH_SIZE, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "The most events one poll returns.")
            .define(POLL_INTERVAL_MS, Type.LONG, DEFAULT_POLL_INTERVAL_MS, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "How long a poll waits for the first event, in milliseconds.");

    public TributaryConnectorConfig(Map<String, String> props) {
        super(CONFIG_DEF, props);
        if (queue() != null && !tables().isEmpty()) {
            throw new ConfigException(QUEUE, queue(), "read either tables (" + TABLES + ") or a queue, not both");
        }
        if (queue() != null && !TOPIC_CHARS.matcher(queue()).matches()) {
            throw new ConfigException(QUEUE, queue(), "a queue name becomes part of a topic name: letters, digits, "
                    + "'.', '_' and '-'");
        }
        if (queue() == null && tables().isEmpty()) {
            throw new ConfigException(TABLES, "", "name at least one table KEYSPACE.TABLE to read, or a queue in " + QUEUE);
        }
        if (snapshotInitial() && queue() != null) {
            throw new ConfigException(SNAPSHOT_MODE, SNAPSHOT_INITIAL, "the initial snapshot reads tables' rows, and a queue "
                    + "(" + QUEUE + ") has none: use never with a queue");
        }
        if ((getString(TLS_CERT) == null) != (getString(TLS_KEY) == null)) {
            throw new ConfigException(TLS_CERT, getString(TLS_CERT), TLS_CERT + " and " + TLS_KEY + " go together");
        }
        if (getPassword(PASSWORD) != null && getString(USER) == null) {
            throw new ConfigException(PASSWORD, "[hidden]", PASSWORD + " needs " + USER);
        }
    }

    public List<String> endpoints() {
        return getList(ENDPOINTS);
    }

    public List<String> tables() {
        return getList(TABLES);
    }

    /** The capture queue to read, or null when tables are read. */
    public String queue() {
        String q = getString(QUEUE);
        return q == null || q.isBlank() ? null : q.trim();
    }

    /** The logs read: the tables, or the queue alone. */
    public List<String> logs() {
        return queue() != null ? List.of(queue()) : tables();
    }

    public String topicPrefix() {
        return getString(TOPIC_PREFIX);
    }

    /** The first LCR time read in streams without an offset; null for the beginning of the log. */
    public Instant start() {
        String s = getString(START);
        return START_EARLIEST.equals(s.toLowerCase(Locale.ROOT)) ? null : Instant.parse(s);
    }

    public String user() {
        return getString(USER);
    }

    public String password() {
        Password p = getPassword(PASSWORD);
        return p == null ? null : p.value();
    }

    public String tlsCa() {
        return getString(TLS_CA);
    }

    public String tlsCert() {
        return getString(TLS_CERT);
    }

    public String tlsKey() {
        return getString(TLS_KEY);
    }

    public Duration requestTimeout() {
        return Duration.ofMillis(getLong(REQUEST_TIMEOUT_MS));
    }

    public Duration refreshInterval() {
        return Duration.ofMillis(getLong(REFRESH_INTERVAL_MS));
    }

    /** snapshot.mode = initial: the tables' rows first, then the changes after them. */
    public boolean snapshotInitial() {
        return SNAPSHOT_INITIAL.equals(getString(SNAPSHOT_MODE));
    }

    public int snapshotFetchSize() {
        return getInt(SNAPSHOT_FETCH_SIZE);
    }

    public int readBatch() {
        return getInt(READ_BATCH);
    }

    public boolean includeSchemaChanges() {
        return getBoolean(INCLUDE_SCHEMA_CHANGES);
    }

    /** Debezium's schema-change topic: the topic prefix itself. */
    public String schemaChangeTopic() {
        return topicPrefix();
    }

    public boolean tombstonesOnDelete() {
        return getBoolean(TOMBSTONES_ON_DELETE);
    }

    public int maxQueueSize() {
        return getInt(MAX_QUEUE_SIZE);
    }

    public int maxBatchSize() {
        return getInt(MAX_BATCH_SIZE);
    }

    public Duration pollInterval() {
        return Duration.ofMillis(getLong(POLL_INTERVAL_MS));
    }

    private static ConfigDef.Validator listOf(Pattern p, String form) {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                for (Object o : (List<?>) value) {
                    String s = String.valueOf(o).trim();
                    if (!p.matcher(s).matches()) {
                        throw new ConfigException(name, s, "expected " + form);
                    }
                }
            }

            @Override
            public String toString() {
                return "a comma-separated list of " + form;
            }
        };
    }

    private static ConfigDef.Validator topicPrefixValidator() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                String s = (String) value;
                if (s == null || !TOPIC_CHARS.matcher(s).matches() || s.startsWith(".") || s.endsWith(".")) {
                    throw new ConfigException(name, s, "a topic prefix uses only letters, digits, '.', '_' and '-', "
                            + "and neither starts nor ends with '.'");
                }
            }

            @Override
            public String toString() {
                return "[a-zA-Z0-9._-]+";
            }
        };
    }

    private static ConfigDef.Validator startValidator() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                String s = (String) value;
                if (s != null && !START_EARLIEST.equalsIgnoreCase(s)) {
                    try {
                        Instant.parse(s);
                    } catch (DateTimeParseException e) {
                        throw new ConfigException(name, s, "expected earliest or an ISO-8601 instant such as "
                                + "2026-12-06T00:00:00Z");
                    }
                }
            }

            @Override
            public String toString() {
                return "earliest | ISO-8601 instant";
            }
        };
    }
}
