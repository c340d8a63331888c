package dev.tributary.bench;

import dev.tributary.client.BatchBuilder;
import dev.tributary.client.PreparedStatement;
import dev.tributary.client.TributaryClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The writers: C threads that claim batches of K consecutive rows and send each as one SDK batch
 * (one transaction) of bound prepared statements, INSERTs of new rows or UPDATEs of the rows'
 * blobs. Thread {@code t} writes through client {@code t % clients.size()}, so several nodes
 * share the load. With a rate, batch {@code b} is not sent before {@code start + b·K / rate}.
 * The first failed batch stops every writer; {@link #run} then throws it.
 */
final class WriterPool {
    /** What one phase of writing did. */
    record Result(long rowsAcknowledged, long startNanos, long endNanos) {
        double seconds() {
            return (endNanos - startNanos) / 1e9;
        }
    }

    enum Kind { INSERT, UPDATE }

    private final List<TributaryClient> clients;
    private final String table;
    private final int threads;
    private final int batch;
    private final int rowBytes;
    private final long rate;

    WriterPool(List<TributaryClient> clients, String table, int threads, int batch, int rowBytes, long rate) {
        this.clients = List.copyOf(clients);
        this.table = table;
        this.threads = threads;
        this.batch = batch;
        this.rowBytes = rowBytes;
        this.rate = rate;
    }

    /** Writes rows {@code 0 .. rows-1}, recording each acknowledgement in {@code acks}; returns once all are acknowledged. */
    Result run(Kind kind, long rows, AckTimeline acks) {
        return run(kind, 0, rows, acks);
    }

    /** Writes rows {@code firstRow .. firstRow+rows-1}. */
    Result run(Kind kind, long firstRow, long rows, AckTimeline acks) {
        String text = kind == Kind.INSERT ? "INSERT INTO " + table + " (pk, bucket, v) VALUES (?, ?, ?)"
                : "UPDATE " + table + " SET v = ? WHERE pk = ?";
        List<PreparedStatement> prepared = new ArrayList<>();
        for (TributaryClient c : clients) {
            prepared.add(c.prepare(text));
        }
        long batches = (rows + batch - 1) / batch;
        AtomicLong nextBatch = new AtomicLong();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        long start = System.nanoTime();
        Pacer pacer = rate > 0 ? new Pacer(start, rate) : null;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            TributaryClient client = clients.get(t % clients.size());
            PreparedStatement statement = prepared.get(t % clients.size());
            Thread w = new Thread(() -> {
                try {
                    for (long b; failure.get() == null && (b = nextBatch.getAndIncrement()) < batches; ) {
                        if (pacer != null) {
                            pacer.awaitUnit(b * batch);
                        }
                        long first = firstRow + b * batch;
                        long last = Math.min(firstRow + rows, first + batch);
                        BatchBuilder bb = client.batch();
                        for (long row = first; row < last; row++) {
                            bb.add(kind == Kind.INSERT
                                    ? statement.bind(row, BenchRows.bucket(row), BenchRows.payload(row, 0, rowBytes))
                                    : statement.bind(BenchRows.payload(row, 1, rowBytes), row));
                        }
                        bb.execute();
                        acks.acknowledged(last - first, System.nanoTime());
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, "bench-writer-" + t);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure.compareAndSet(null, new BenchFailedException("interrupted while waiting for the writers"));
                break;
            }
        }
        long end = System.nanoTime();
        RuntimeException f = failure.get();
        if (f != null) {
            throw new BenchFailedException("a write batch to " + table + " failed after " + acks.total()
                    + " rows were acknowledged: " + f, f);
        }
        return new Result(acks.total(), start, end);
    }
}
