package dev.tributary.deploy;

import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.TributaryException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * How the CLI shows a node's long operations (system_views.operations): one line each, with a
 * progress bar, and while a command waits on one, that line redrawn on a terminal.
 */
final class OperationProgress {
    /** How often a terminal's progress line is redrawn while a long call runs. */
    private static final long REDRAW_EVERY_MILLIS = 1_000;

    private OperationProgress() {
    }

    /**
     * Runs {@code call}; on a terminal, meanwhile redraws one line on stderr with the progress of
     * the running operation of that {@code kind}, so whoever waits sees how far it is. Scripts (no
     * terminal) get the answer alone. {@code client} must be usable from another thread.
     */
    static <T> T await(Terminal terminal, TributaryClient client, String kind, Supplier<T> call) {
        if (!terminal.interactive()) {
            return call.get();
        }
        ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cli-" + kind);
            t.setDaemon(true);
            return t;
        });
        boolean drawn = false;
        try {
            Future<T> answer = runner.submit(call::get);
            while (true) {
                try {
                    return answer.get(REDRAW_EVERY_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException stillRunning) {
                    String line = running(client, kind);
                    if (line != null) {
                        terminal.err().print("\r" + line + "\u001b[K"); // erase what a longer line left
                        terminal.err().flush();
                        drawn = true;
                    }
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException("UNAVAILABLE", "interrupted while waiting for " + kind);
        } finally {
            if (drawn) {
                terminal.err().println();
            }
            runner.shutdownNow();
        }
    }

    /** The running operation of {@code kind} as {@link #line} prints it, or null (none, or the view unreadable). */
    private static String running(TributaryClient c, String kind) {
        try {
            for (dev.tributary.client.Row r : c.execute("SELECT host_id, kind, target, state, unit, done, total, rate_per_second, "
                    + "eta_seconds FROM system_views.operations").all()) {
                if (kind.equals(r.getString("kind")) && "RUNNING".equals(r.getString("state"))) {
                    return line("RUNNING", kind, r.getString("target"), r.getUuid("host_id").toString(), r.getString("unit"),
                            r.getLong("done"), r.isNull("total") ? null : r.getLong("total"), r.getDouble("rate_per_second"),
                            r.isNull("eta_seconds") ? null : r.getLong("eta_seconds"));
                }
            }
        } catch (RuntimeException e) {
            // a node leaving may stop answering reads before the call returns: the line just stops
        }
        return null;
    }

    /**
     * {@code RUNNING  instantiate_table ks.t to apply w on <host>: [######--------------]  30% 300 of 1,000 rows,
     * 100 rows/s, ETA 7 s}; without a total, no bar and no ETA.
     */
    static String line(String state, String kind, String target, String host, String unit, long done, Long total,
            double rate, Long etaSeconds) {
        StringBuilder b = new StringBuilder(String.format(java.util.Locale.ROOT, "%-8s %s %s on %s: ", state, kind, target, host));
        if (total != null) {
            double fraction = total == 0 ? 1 : Math.min(1, (double) done / total);
            b.append(bar(fraction, 20)).append(String.format(java.util.Locale.ROOT, " %3d%% %,d of %,d %s",
                    (int) Math.floor(fraction * 100), done, total, unit));
        } else {
            b.append(String.format(java.util.Locale.ROOT, "%,d %s", done, unit));
        }
        b.append(String.format(java.util.Locale.ROOT, ", %,.0f %s/s", rate, unit));
        if (etaSeconds != null) {
            b.append(", ETA ").append(etaSeconds).append(" s");
        }
        return b.toString();
    }

    /** {@code [#####---------------]}: {@code width} cells, the done fraction filled. */
    static String bar(double fraction, int width) {
        int filled = (int) Math.floor(Math.max(0, Math.min(1, fraction)) * width);
        return "[" + "#".repeat(filled) + "-".repeat(width - filled) + "]";
    }

}
