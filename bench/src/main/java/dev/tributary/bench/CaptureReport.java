package dev.tributary.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every figure of one {@code bench capture} run. Immutable. Rates are per second of the measured
 * phase: acknowledged writes over the time until the last batch was acknowledged, delivered LCRs
 * over the time until the last LCR arrived, both from the moment the writers started.
 *
 * @param table           the CDC table written
 * @param lcrs            measured LCRs the consumers received (equals the rows on success)
 * @param unexpectedLcrs  row LCRs of another command type than the measured one (should be 0)
 * @param writeSeconds    writers' start to the last acknowledgement
 * @param deliverSeconds  writers' start to the last LCR received
 * @param baseline        the RocksDB baseline of the same run, or null with --no-baseline
 * @param consumer        how the log was read
 * @param lag             capture lag, sampled every second
 * @param subset          the subset-rule capture, or null without --subset-percent
 * @param nodeBytesPerRow what the node's store holds per row (in-process runs), or null
 */
public record CaptureReport(CaptureOptions options, Machine machine, String table, long lcrs, long unexpectedLcrs,
        double writeSeconds, double deliverSeconds, Latency latency, Baseline baseline, Memory memory,
        ConsumerStats consumer, List<LagSample> lag, Subset subset, Map<String, Object> nodeBytesPerRow) {

    public CaptureReport {
        lag = List.copyOf(lag);
    }

    /** Write-to-consumer latency of the measured LCRs, in milliseconds. */
    public record Latency(double p50, double p99, double p999, double max, double mean, long count) {
        static Latency of(LatencyRecorder r) {
            return new Latency(r.percentileMillis(50), r.percentileMillis(99), r.percentileMillis(99.9), r.maxMillis(),
                    r.meanMillis(), r.count());
        }
    }

    /** The baseline's timed phase and what its store holds per row. */
    public record Baseline(double rowsPerSecond, double seconds, long transactions, Map<String, Object> bytesPerRow) {
    }

    /**
     * Node memory. In-process the figures are the bench JVM's, which holds the node and the
     * clients; with --connect and --node-pid only the RSS is known.
     *
     * @param source where the RSS came from (/proc/self/status, /proc/PID/status) or why it is missing
     */
    public record Memory(Double peakRssMb, Double heapPeakUsedMb, Double heapMaxMb, String source) {
    }

    /** How the consumers read: threads per node, streams followed, ReadChanges calls made. */
    public record ConsumerStats(int threads, int streams, long reads) {
    }

    /** The subset-rule capture: how many LCRs its queue should get, how many it got, how long it took. */
    public record Subset(int percent, long expected, long enqueued, double seconds) {
        double lcrsPerSecond() {
            return seconds > 0 ? expected / seconds : 0;
        }
    }

    public double writesPerSecond() {
        return options.rows() / writeSeconds;
    }

    public double lcrsPerSecond() {
        return lcrs / deliverSeconds;
    }

    /** Tributary LCRs/s over baseline rows/s, or null without a baseline. */
    public Double ratio() {
        return baseline == null ? null : lcrsPerSecond() / baseline.rowsPerSecond();
    }

    /** The figures as one JSON object (one line): the keys of issue #7 first, then the details. */
    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lcrs_per_s", lcrsPerSecond());
        m.put("writes_per_s", writesPerSecond());
        m.put("baseline_rows_per_s", baseline == null ? null : baseline.rowsPerSecond());
        m.put("ratio", ratio());
        m.put("p50_ms", latency.p50());
        m.put("p99_ms", latency.p99());
        m.put("p999_ms", latency.p999());
        m.put("peak_rss_mb", memory.peakRssMb());
        m.put("durability", options.durability().flag());
        m.put("rows", options.rows());
        m.put("row_bytes", options.rowBytes());
        m.put("clients", options.clients());
        m.put("batch", options.batch());
        m.put("lcrs", lcrs);
        m.put("unexpected_lcrs", unexpectedLcrs);
        m.put("nodes", options.nodes());
        m.put("mode", options.inProcess() ? "in-process" : "connect " + options.connect());
        m.put("replication_factor", options.replicationFactor());
        m.put("workload", options.updates() ? "update" : "insert");
        m.put("rate_limit_rows_per_s", options.rate());
        m.put("consumer_rate_limit_lcrs_per_s", options.consumerRate());
        m.put("warmup_rows", options.warmupRows());
        m.put("parallelism", options.parallelism());
        m.put("num_tokens", options.inProcess() ? options.numTokens() : null);
        m.put("table", table);
        m.put("durability_meaning", options.durability().description());
        m.put("write_s", writeSeconds);
        m.put("deliver_s", deliverSeconds);
        m.put("max_ms", latency.max());
        m.put("mean_ms", latency.mean());
        m.put("latency_count", latency.count());
        m.put("baseline_s", baseline == null ? null : baseline.seconds());
        m.put("baseline_transactions", baseline == null ? null : baseline.transactions());
        m.put("heap_peak_used_mb", memory.heapPeakUsedMb());
        m.put("heap_max_mb", memory.heapMaxMb());
        m.put("rss_source", memory.source());
        m.put("consumer_threads", consumer.threads());
        m.put("streams", consumer.streams());
        m.put("consumer_reads", consumer.reads());
        if (subset != null) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("percent", subset.percent());
            s.put("expected", subset.expected());
            s.put("enqueued", subset.enqueued());
            s.put("seconds", subset.seconds());
            s.put("lcrs_per_s", subset.lcrsPerSecond());
            m.put("subset", s);
        }
        m.put("node_bytes_per_row", nodeBytesPerRow);
        m.put("baseline_bytes_per_row", baseline == null ? null : baseline.bytesPerRow());
        m.put("machine", machine.toMap());
        List<Object> samples = new ArrayList<>();
        for (LagSample s : lag) {
            samples.add(s.toMap());
        }
        m.put("lag", samples);
        return JsonText.of(m);
    }

    /** A human summary, several lines. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        CaptureOptions o = options;
        sb.append(String.format(Locale.ROOT, "tributary bench capture: %d rows of %d bytes (%s), %d clients, batches of %d, %s%n",
                o.rows(), o.rowBytes(), o.updates() ? "one UPDATE each after a preload" : "INSERTs", o.clients(), o.batch(),
                o.inProcess() ? o.nodes() + " in-process node(s), " + o.numTokens() + " vnodes each"
                        : "node " + o.connect() + ", replication_factor " + o.replicationFactor()));
        sb.append("  durability        ").append(o.durability().flag()).append(": ").append(o.durability().description())
                .append('\n');
        if (o.warmupRows() > 0) {
            sb.append("  warm-up           ").append(o.warmupRows()).append(" other rows written and consumed first, not measured\n");
        }
        if (o.rate() > 0) {
            sb.append("  rate limit        ").append(o.rate()).append(" rows/s\n");
        }
        if (o.consumerRate() > 0) {
            sb.append("  consumer limit    ").append(o.consumerRate()).append(" LCRs/s per consumer thread\n");
        }
        sb.append("  machine           ").append(machine).append('\n');
        line(sb, "writes acked", "%,.0f rows/s (%.2f s)", writesPerSecond(), writeSeconds);
        line(sb, "LCRs delivered", "%,.0f LCRs/s (%d LCRs in %.2f s; %d consumer thread(s) over %d streams, %,d reads)",
                lcrsPerSecond(), lcrs, deliverSeconds, consumer.threads(), consumer.streams(), consumer.reads());
        if (baseline != null) {
            line(sb, "RocksDB baseline", "%,.0f rows/s (%.2f s, %d WriteBatch pairs, one thread)", baseline.rowsPerSecond(),
                    baseline.seconds(), baseline.transactions());
            line(sb, "ratio", "%.3f (Tributary LCRs/s / baseline rows/s)", ratio());
        }
        line(sb, "latency", "p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, max %.1f ms (commit SCN to consumer)",
                latency.p50(), latency.p99(), latency.p999(), latency.max());
        sb.append("  memory            ").append(memory.peakRssMb() == null ? "peak RSS unknown"
                : String.format(Locale.ROOT, "peak RSS %.0f MB", memory.peakRssMb()));
        if (memory.heapPeakUsedMb() != null) {
            sb.append(String.format(Locale.ROOT, ", heap used peak %.0f MB of %.0f MB max", memory.heapPeakUsedMb(),
                    memory.heapMaxMb()));
        }
        sb.append(" (").append(memory.source()).append(")\n");
        if (subset != null) {
            line(sb, "subset capture", "%d%% of rows: %d of %d LCRs enqueued in %.2f s (%,.0f LCRs/s)", subset.percent(),
                    subset.enqueued(), subset.expected(), subset.seconds(), subset.lcrsPerSecond());
        }
        if (nodeBytesPerRow != null) {
            sb.append("  bytes per row     node ").append(JsonText.of(nodeBytesPerRow));
            if (baseline != null) {
                sb.append(", baseline ").append(JsonText.of(baseline.bytesPerRow()));
            }
            sb.append('\n');
        }
        if (!lag.isEmpty()) {
            long maxLag = lag.stream().mapToLong(LagSample::lagMillis).max().orElse(0);
            long maxCaptureLag = lag.stream().filter(s -> s.captureLagMillis() != null)
                    .mapToLong(LagSample::captureLagMillis).max().orElse(-1);
            long maxBacklog = lag.stream().mapToLong(LagSample::backlog).max().orElse(0);
            line(sb, "capture lag", "consumer max %,d ms (backlog up to %,d LCRs)%s; %d samples, 1/s, all in --json",
                    maxLag, maxBacklog, maxCaptureLag < 0 ? "" : String.format(Locale.ROOT,
                            ", node capture max %,d ms", maxCaptureLag), lag.size());
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String label, String format, Object... args) {
        sb.append(String.format(Locale.ROOT, "  %-18s", label)).append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
