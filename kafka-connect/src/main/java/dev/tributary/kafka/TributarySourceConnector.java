package dev.tributary.kafka;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import dev.tributary.kafka.internal.Clients;
import dev.tributary.kafka.internal.Offsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Connect source connector for Tributary tables (docs/KAFKA.md): each table's CDC streams
 * are split over up to {@code tasks.max} tasks by token range, and each change becomes an event in
 * Debezium's envelope on the topic {@code <topic.prefix>.<keyspace>.<table>}. The connector
 * watches the tables' stream sets and asks for new task configurations when the number of tasks
 * they warrant changes (streams, not tasks, are the unit: never more tasks than current streams).
 */
public final class TributarySourceConnector extends SourceConnector {
    static final String VERSION = versionOf();
    private static final Logger LOG = LoggerFactory.getLogger(TributarySourceConnector.class);
    private static final String PRODUCER_BATCH_SIZE = "producer.override.batch.size";

    private Map<String, String> props;
    private volatile TributaryConnectorConfig config;
    private TributaryClient client;
    private final List<ChangeConsumer> watchers = new ArrayList<>();
    private ScheduledExecutorService checker;
    /** The streams still current (no closing time) at the last listing of each table's log. */
    private final Set<String> current = ConcurrentHashMap.newKeySet();
    private volatile int taskCountGiven = -1;
    private volatile int maxTasks = 1;

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = Map.copyOf(props);
        try {
            config = new TributaryConnectorConfig(props);
        } catch (ConfigException e) {
            throw new ConnectException("invalid configuration: " + e.getMessage(), e);
        }
        LOG.info("Tributary source connector {}: {}", VERSION, config.values());
        if (!props.containsKey(PRODUCER_BATCH_SIZE)) {
            // the worker's producer, as Connect configures it, sends one request at a time per broker: with 16 KB
            // batches and events of a few KB that is a handful of events per round trip (docs/BENCHMARKS.md)
            LOG.info("{} is not set: unless the worker's producer.batch.size is, each task's producer sends 16 KB "
                    + "batches, one request in flight per broker (Connect's setting), a few events a round trip; "
                    + "docs/KAFKA.md (\"Throughput\") suggests {}=1048576, producer.override.linger.ms=10 and "
                    + "producer.override.compression.type=lz4", PRODUCER_BATCH_SIZE, PRODUCER_BATCH_SIZE);
        }
        if (config.queue() != null) {
            return; // one task reads a queue whole, however many streams it has: nothing to watch
        }
        client = Clients.build(config);
        try {
            // listing only: the assignment takes no stream, so nothing is read; it sees every stream of every listing
            for (String table : config.logs()) {
                ChangeConsumer.Builder b = ChangeConsumer.builder(client);
                ChangeConsumer w = (config.queue() != null ? b.queue(table) : b.table(table)).start(StartPosition.latest())
                        .refreshInterval(config.refreshInterval())
                        .assignment(d -> {
                            String id = table + "/" + Offsets.hex(d.streamId());
                            if (d.closedMillis() == Long.MAX_VALUE && !"schema".equals(d.lineage())) {
                                current.add(id);
                            } else {
                                current.remove(id);
                            }
                            return false;
                        })
                        .handler(r -> { })
                        .build();
                watchers.add(w);
                w.start();
            }
        } catch (RuntimeException e) {
            stop();
            throw new ConnectException("could not list the streams of " + config.logs() + " at "
                    + config.endpoints() + ": " + e.getMessage(), e);
        }
        checker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tributary-connector-streams");
            t.setDaemon(true);
            return t;
        });
        long every = config.refreshInterval().toMillis();
        checker.scheduleWithFixedDelay(this::checkStreams, every, every, TimeUnit.MILLISECONDS);
    }

    private void checkStreams() {
        int given = taskCountGiven;
        if (given >= 0 && taskCount(maxTasks) != given) {
            LOG.info("{} current streams: {} tasks instead of {}", current.size(), taskCount(maxTasks), given);
            context.requestTaskReconfiguration();
        }
    }

    /**
     * A table's streams: up to {@code tasks.max} tasks, never more than current streams. A queue:
     * one task, whatever {@code tasks.max} says — its transactions are released whole and in commit
     * order only by a reader of every one of its streams (docs/KAFKA.md, "A queue's transactions").
     */
    private int taskCount(int max) {
        if (config != null && config.queue() != null) {
            return 1;
        }
        return Math.max(1, Math.min(max, current.size()));
    }

    @Override
    public Class<? extends Task> taskClass() {
        return TributarySourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        this.maxTasks = maxTasks;
        int n = taskCount(maxTasks);
        taskCountGiven = n;
        List<Map<String, String>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Map<String, String> task = new HashMap<>(props);
            task.put(TributarySourceTask.TASK_INDEX, Integer.toString(i));
            task.put(TributarySourceTask.TASK_COUNT, Integer.toString(n));
            out.add(task);
        }
        return out;
    }

    @Override
    public void stop() {
        if (checker != null) {
            checker.shutdownNow();
            checker = null;
        }
        for (ChangeConsumer w : watchers) {
            w.close();
        }
        watchers.clear();
        if (client != null) {
            client.close();
            client = null;
        }
    }

    /**
     * Exactly once with KIP-618: a source offset is an LCR's position under a source partition
     * whose serialized form is the same on every worker ({@link Offsets#partition}), so the records
     * of a poll and their offsets, committed in one transaction, are resumed from exactly there by
     * whichever worker runs the task next. The worker defines the transaction boundaries (per poll
     * by default): a poll never splits the records of one LCR (an event and its tombstone).
     */
    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.SUPPORTED;
    }

    /**
     * A task may end Kafka transactions itself ({@code transaction.boundary=connector}): it ends one
     * after each poll, whose records are whole LCRs for a table and whole Tributary transactions for
     * a queue.
     */
    @Override
    public ConnectorTransactionBoundaries canDefineTransactionBoundaries(Map<String, String> connectorConfig) {
        return ConnectorTransactionBoundaries.SUPPORTED;
    }

    @Override
    public ConfigDef config() {
        return TributaryConnectorConfig.CONFIG_DEF;
    }

    /** The per-setting checks, then those across settings, each reported on the setting it concerns. */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config c = super.validate(connectorConfigs);
        boolean clean = c.configValues().stream().allMatch(v -> v.errorMessages().isEmpty());
        if (clean) {
            try {
                new TributaryConnectorConfig(connectorConfigs);
            } catch (ConfigException e) {
                String name = e.getMessage() != null && e.getMessage().contains(" for configuration ")
                        ? e.getMessage().replaceFirst(".* for configuration ([^:]+):.*", "$1") : null;
                for (ConfigValue v : c.configValues()) {
                    if (v.name().equals(name)) {
                        v.addErrorMessage(e.getMessage());
                        return c;
                    }
                }
                c.configValues().get(0).addErrorMessage(e.getMessage());
            }
        }
        return c;
    }

    private static String versionOf() {
        String v = TributarySourceConnector.class.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }
}
