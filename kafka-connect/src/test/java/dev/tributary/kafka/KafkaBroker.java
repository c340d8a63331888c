package dev.tributary.kafka;

import dev.tributary.node.TestNodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node KRaft Kafka (broker and controller in one process) from the kafka_2.13 jar
 * on the test class path: storage formatted with {@code kafka.tools.StorageTool}, then
 * {@code kafka.Kafka} in its own JVM, so a test can kill it and its log stays apart.
 */
final class KafkaBroker implements AutoCloseable {
    private final Path dir;
    private final Process process;
    private final int port;

    private KafkaBroker(Path dir, Process process, int port) {
        this.dir = dir;
        this.process = process;
        this.port = port;
    }

    static KafkaBroker start(Path dir, int partitions) throws Exception {
        int port = TestNodes.freePort();
        int controller = TestNodes.freePort();
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controller);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dir.resolve("data").toString());
        p.put("num.partitions", Integer.toString(partitions));
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "3");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "3");
        p.put("group.initial.rebalance.delay.ms", "0");
        // timed-out transactions (a killed worker's) aborted within a second rather than ten
        p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        Path props = dir.resolve("server.properties");
        try (var out = Files.newBufferedWriter(props)) {
            p.store(out, "KafkaBroker (test)");
        }
        Process format = java(dir, "format", "kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                "-c", props.toString());
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("formatting the broker's storage failed: "
                    + Files.readString(dir.resolve("format.log")));
        }
        Process broker = java(dir, "broker", "kafka.Kafka", props.toString());
        KafkaBroker b = new KafkaBroker(dir, broker, port);
        b.awaitReady();
        return b;
    }

    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "90000"))) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the broker exited: " + log());
                }
                try {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    return;
                } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the broker did not answer within 90 s: " + log(), e);
                    }
                }
            }
        }
    }

    String log() throws IOException {
        Path l = dir.resolve("broker.log");
        if (!Files.exists(l)) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(l);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static Process java(Path dir, String name, String main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), main));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
