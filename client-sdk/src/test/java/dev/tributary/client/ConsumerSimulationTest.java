package dev.tributary.client;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The consumer's pure parts — {@link StreamMerge} (merge by position below the lowest safe time,
 * dedupe of handed-over copies, the member's low watermark), {@link StreamHandoff} (what is
 * recorded as handled) and {@link StreamGate} (lineage gates, stream states) — driven by a
 * seeded, single-threaded simulation: fake nodes append LCRs above their safe times and send them
 * in chunks; two stream sets follow each other (vnodes kept or merged, or a tablet split);
 * consumer sessions release, deliver, commit positions, stop at a limit or crash (losing what was
 * not committed) and resume from the committed positions; nodes join, and decommission handing
 * their LCRs to another node; retention deletes below the group's watermark. After every step it
 * checks: nothing released at or above a node's safe time, per-stream order, no child LCR before
 * its parents', no gap after a resume, the watermark at or below every LCR not delivered; at the
 * end a session that runs to completion has delivered every LCR ever written.
 *
 * <p>Seeds: {@code -Dtributary.sim.seeds=N} (default 300; the {@code simulation} profile runs
 * 5,000); a failure names its seed, {@code -Dtributary.sim.seed=S} replays exactly that one.
 */
class ConsumerSimulationTest {
    /** An LCR: its stream, its time and a sequence number making its position unique. */
    private record L(int stream, long micros, int seq) implements Comparable<L> {
        @Override
        public int compareTo(L o) {
            int c = Long.compare(micros, o.micros);
            return c != 0 ? c : Integer.compare(seq, o.seq);
        }

        LcrPosition position() {
            return LcrPosition.of(streamId(stream), new UUID(micros, seq), 0);
        }

        static L of(int stream, LcrPosition p) {
            return new L(stream, p.time().getMostSignificantBits(), (int) p.time().getLeastSignificantBits());
        }
    }

    private static byte[] streamId(int stream) {
        return ByteBuffer.allocate(16).putInt(stream).array();
    }

    /** A fake node: its log per stream and its safe time; every LCR it will ever log is at or above the safe time. */
    private static final class Node {
        final int id;
        final Map<Integer, TreeSet<L>> log = new HashMap<>();
        long safe;

        Node(int id, long safe) {
            this.id = id;
            this.safe = safe;
        }
    }

    /** One session's read of a stream from a node: a cursor, a buffer, the safe time it was told. */
    private static final class Read {
        L after;
        final ArrayDeque<L> buffer = new ArrayDeque<>();
        long safe = Long.MIN_VALUE;
        boolean reported;
    }

    /** One session's state of a stream. */
    private static final class Run implements StreamMerge.StreamProgress {
        final int stream;
        final long openedMillis;
        final long closedMillis;
        StreamGate.Status status = StreamGate.Status.WAITING;
        final Map<Integer, Read> reads = new HashMap<>();
        final StreamHandoff<L> handoff;
        L lastReleased;
        long released;
        long delivered;
        /** Recorded by the hand-off, not yet committed. */
        StreamHandoff.Handled pending;

        Run(int stream, long openedMillis, long closedMillis, StreamHandoff<L> handoff, long from) {
            this.stream = stream;
            this.openedMillis = openedMillis;
            this.closedMillis = closedMillis;
            this.handoff = handoff;
            this.released = from;
            this.delivered = from;
        }

        @Override
        public boolean done() {
            return status == StreamGate.Status.DONE;
        }

        @Override
        public boolean waiting() {
            return status == StreamGate.Status.WAITING;
        }

        @Override
        public long deliveredMicros() {
            return delivered;
        }

        @Override
        public long openedMillis() {
            return openedMillis;
        }
    }

    private static final class Sim {
        final long seed;
        final Random rnd;
        /**
         * Streams 0..streams-1 are the first set; streams..total-1 the second's, opened at
         * {@code secondSetMillis}: one child per stream (a vnode kept, or two merged), or two (a
         * tablet split). A key's stream in each set: {@link #streamOf}.
         */
        final int streams;
        final boolean split;
        final int total;
        final int keys;
        final long secondSetMillis;
        /** The parents of each stream of the second set (one: a vnode kept; two: merged). */
        final Map<Integer, List<Integer>> parents = new HashMap<>();
        final List<Node> nodes = new ArrayList<>();
        int nextNodeId;
        long clock = 1_000;
        int seq;
        /** Every LCR ever logged (once, whatever node holds it), and those handed to a handler. */
        final Set<L> written = new HashSet<>();
        final Set<L> handled = new HashSet<>();
        /** The group's committed positions per stream, and its watermark. */
        final Map<Integer, StreamHandoff.Handled> committed = new HashMap<>();
        long groupWatermark;
        /** Per stream, the newest LCR first handled, for the order check. */
        final Map<Integer, L> newestFirstSeen = new HashMap<>();
        // the session
        Map<Integer, Run> runs;
        boolean running;
        /** The handler stopped the session; it has not closed yet. */
        boolean stopping;
        int limit;
        int handledInSession;

        Sim(long seed) {
            this.seed = seed;
            this.rnd = new Random(seed);
            this.streams = 1 + rnd.nextInt(5);
            this.split = rnd.nextBoolean();
            this.total = split ? 3 * streams : 2 * streams;
            this.keys = split ? 2 * streams : streams;
            this.secondSetMillis = 2 + rnd.nextInt(2);
            for (int k = 0; k < streams; k++) {
                if (split) {
                    parents.put(streams + 2 * k, List.of(k));
                    parents.put(streams + 2 * k + 1, List.of(k));
                } else {
                    parents.put(streams + k, streams > 1 && rnd.nextBoolean() ? List.of(k, (k + 1) % streams) : List.of(k));
                }
            }
            int n = 1 + rnd.nextInt(3);
            for (int i = 0; i < n; i++) {
                nodes.add(new Node(nextNodeId++, clock));
            }
        }

        void fail(String what) {
            throw new AssertionError("seed " + seed + " (replay: -Dtributary.sim.seed=" + seed + "): " + what);
        }

        void run(int steps) {
            openSession(Integer.MAX_VALUE);
            for (int step = 0; step < steps; step++) {
                int r = rnd.nextInt(100);
                if (r < 30) {
                    write();
                } else if (r < 45) {
                    advanceSafeTime();
                } else if (r < 75) {
                    send();
                } else if (r < 85) {
                    releaseAll();
                } else if (r < 90) {
                    commit();
                } else if (r < 93) {
                    if (stopping) {
                        closeStopped();
                    } else {
                        crash();
                    }
                } else if (r < 96) {
                    stopAtLimit();
                } else if (r < 97) {
                    retention();
                } else if (r < 98 && nodes.size() < 4) {
                    join();
                } else if (nodes.size() > 1) {
                    decommission();
                }
                check();
            }
            // the end: writes stop, every node's safe time passes everything, one session reads to the end
            for (Node n : nodes) {
                n.safe = clock + 1_000_000;
            }
            crash();
            for (int i = 0; i < 10_000 && !handled.containsAll(written); i++) {
                send();
                releaseAll();
                check();
            }
            Set<L> missing = new TreeSet<>(written);
            missing.removeAll(handled);
            if (!missing.isEmpty()) {
                fail("never delivered: " + missing);
            }
        }

        void write() {
            Node n = nodes.get(rnd.nextInt(nodes.size()));
            clock += rnd.nextInt(50);
            long t = Math.max(n.safe, clock - rnd.nextInt(20)); // a write in the past, but never below the safe time
            L l = new L(streamOf(rnd.nextInt(keys), t), t, seq++);
            n.log.computeIfAbsent(l.stream, k -> new TreeSet<>()).add(l);
            written.add(l);
        }

        /** A key's stream at time t: in the first set before the second set's timestamp, then in the second. */
        int streamOf(int key, long t) {
            if (t < secondSetMillis * 1000) {
                return split ? key / 2 : key;
            }
            return streams + key;
        }

        void advanceSafeTime() {
            Node n = nodes.get(rnd.nextInt(nodes.size()));
            n.safe = Math.max(n.safe, clock - rnd.nextInt(30));
        }

        /** A node sends a chunk of one stream: the LCRs after the read's cursor below its safe time. */
        void send() {
            Node n = nodes.get(rnd.nextInt(nodes.size()));
            Run run = runs.get(rnd.nextInt(total));
            if (run.status != StreamGate.Status.ACTIVE) {
                return; // not read
            }
            Read read = run.reads.get(n.id);
            TreeSet<L> log = n.log.getOrDefault(run.stream, new TreeSet<>());
            int max = 1 + rnd.nextInt(4);
            List<L> page = new ArrayList<>();
            for (L l : read.after == null ? log : log.tailSet(read.after, false)) {
                if (l.micros >= n.safe || page.size() == max) {
                    break;
                }
                page.add(l);
            }
            boolean cut = page.size() == max;
            read.buffer.addAll(page);
            if (!page.isEmpty()) {
                read.after = page.get(page.size() - 1);
            }
            read.safe = Math.max(read.safe, cut ? page.get(page.size() - 1).micros : n.safe);
            read.reported = true;
        }

        void releaseAll() {
            for (Run run : runs.values()) {
                if (run.status != StreamGate.Status.ACTIVE) {
                    continue;
                }
                long bound = Long.MAX_VALUE;
                boolean all = true;
                for (Node n : nodes) {
                    Read r = run.reads.get(n.id);
                    all &= r.reported;
                    bound = Math.min(bound, r.safe);
                }
                if (!all || bound <= run.released) {
                    continue;
                }
                for (Node n : nodes) {
                    if (bound > n.safe) {
                        fail("stream " + run.stream + " released below " + bound + ", above node " + n.id
                                + "'s safe time " + n.safe);
                    }
                }
                List<ArrayDeque<L>> buffers = new ArrayList<>();
                for (Node n : nodes) {
                    buffers.add(run.reads.get(n.id).buffer);
                }
                StreamMerge.Released<L> taken = StreamMerge.release(buffers, bound, run.lastReleased, L::micros);
                run.lastReleased = taken.last();
                run.released = bound;
                StreamHandoff.Outcome o = run.handoff.deliver(taken.lcrs(), bound, () -> running);
                if (o.handled() != null) {
                    run.pending = o.handled();
                }
                if (o.complete()) {
                    run.delivered = Math.max(run.delivered, bound);
                }
                if (o.failure() != null) {
                    progress();
                    // the limit: the session stops, but its event loop may release more before it
                    // notices; the member then commits what it handled and leaves (closeStopped)
                    running = false;
                    stopping = true;
                }
            }
            progress();
        }

        /** Opens the streams whose parents are delivered far enough, finishes the complete ones (StreamGate). */
        void progress() {
            for (boolean changed = true; changed; ) {
                changed = false;
                for (Run run : runs.values()) {
                    if (run.status == StreamGate.Status.WAITING && gateOpen(run)) {
                        run.status = run.status.to(StreamGate.Status.ACTIVE);
                        changed = true;
                    } else if (run.status == StreamGate.Status.ACTIVE
                            && StreamGate.complete(run.closedMillis, 0, run.delivered)) {
                        run.status = run.status.to(StreamGate.Status.DONE);
                        changed = true;
                    }
                }
            }
        }

        boolean gateOpen(Run run) {
            List<StreamGate.Parent> ps = new ArrayList<>();
            for (int p : parents.getOrDefault(run.stream, List.of())) {
                Run parent = runs.get(p);
                ps.add(StreamGate.Parent.readHere(parent.status, parent.delivered));
            }
            return StreamGate.open(run.openedMillis, ps, 0);
        }

        void handle(L l) {
            if (handledInSession >= limit) {
                throw new IllegalStateException("limit");
            }
            handledInSession++;
            for (int p : parents.getOrDefault(l.stream, List.of())) {
                for (L w : written) {
                    if (w.stream == p && !handled.contains(w)) {
                        fail("stream " + l.stream + "'s " + l + " handed over before its parent's " + w);
                    }
                }
            }
            if (l.micros >= groupWatermark && !written.contains(l)) {
                fail("delivered an LCR nobody wrote: " + l);
            }
            if (handled.add(l)) {
                L newest = newestFirstSeen.get(l.stream);
                if (newest != null && newest.compareTo(l) > 0) {
                    fail("stream " + l.stream + ": " + l + " first delivered after " + newest);
                }
                newestFirstSeen.put(l.stream, l);
            }
        }

        /** The session's recorded progress and its watermark go to the group (a commit or the close). */
        void commit() {
            for (Run run : runs.values()) {
                if (run.pending != null) {
                    StreamHandoff.Handled old = committed.get(run.stream);
                    if (old == null || run.pending.throughMicros() >= old.throughMicros()) {
                        StreamHandoff.Handled h = run.pending;
                        committed.put(run.stream, h.last() == null && old != null ? new StreamHandoff.Handled(old.last(),
                                h.throughMicros()) : h);
                    }
                    run.pending = null;
                }
            }
            groupWatermark = Math.max(groupWatermark, StreamMerge.lowWatermark(clock, runs.values()));
        }

        void closeStopped() {
            commit();
            openSession(1 + rnd.nextInt(40));
        }

        /** SIGKILL: nothing more is committed; a new session resumes from the committed positions. */
        void crash() {
            running = false;
            openSession(Integer.MAX_VALUE);
        }

        /** A session with a limit stops by itself at the limit (see releaseAll). */
        void stopAtLimit() {
            running = false;
            commit();
            openSession(1 + rnd.nextInt(40));
        }

        void openSession(int limit) {
            this.limit = limit;
            this.handledInSession = 0;
            this.running = true;
            this.stopping = false;
            runs = new HashMap<>();
            for (int s = 0; s < total; s++) {
                StreamHandoff.Handled c = committed.get(s);
                long from = c == null ? Math.max(0, groupWatermark) : c.throughMicros();
                boolean first = s < streams;
                Run run = new Run(s, first ? Long.MIN_VALUE : secondSetMillis, first ? secondSetMillis : Long.MAX_VALUE,
                        new StreamHandoff<>(new StreamHandoff.Lcrs<>() {
                    @Override
                    public LcrPosition handle(L l) {
                        Sim.this.handle(l);
                        return l.position();
                    }

                    @Override
                    public long micros(L l) {
                        return l.micros;
                    }
                }), from);
                L after = c == null || c.last() == null ? null : L.of(s, c.last());
                if (after == null && c == null && groupWatermark > 0) {
                    after = new L(s, groupWatermark, -1); // from the watermark on
                } else if (after == null && c != null) {
                    after = new L(s, c.throughMicros(), -1); // handled through a time with no LCR yet
                }
                for (Node n : nodes) {
                    Read r = new Read();
                    r.after = after;
                    run.reads.put(n.id, r);
                }
                run.lastReleased = after;
                if (first) {
                    run.status = run.status.to(run.closedMillis * 1000 <= from ? StreamGate.Status.DONE
                            : StreamGate.Status.ACTIVE);
                }
                runs.put(s, run);
            }
            progress();
        }

        /** Deletes on every node what the group's watermark has passed. */
        void retention() {
            for (Node n : nodes) {
                for (TreeSet<L> log : n.log.values()) {
                    log.removeIf(l -> l.micros < groupWatermark);
                }
            }
        }

        /**
         * A node joins. It logs nothing below the safe times the others reported (it registered
         * after their membership reads, which bound them), and the consumer learns of it with the
         * first batch whose safe time its registration bounds: until it has heard from it, that
         * node holds every stream back.
         */
        void join() {
            long safe = Long.MIN_VALUE;
            for (Node n : nodes) {
                safe = Math.max(safe, n.safe);
            }
            Node n = new Node(nextNodeId++, safe);
            nodes.add(n);
            for (Run run : runs.values()) {
                Read r = new Read();
                r.after = run.lastReleased;
                run.reads.put(n.id, r);
            }
        }

        /** A node leaves: its LCRs go to another node at their positions; the session reads the others again. */
        void decommission() {
            Node gone = nodes.remove(rnd.nextInt(nodes.size()));
            Node to = nodes.get(rnd.nextInt(nodes.size()));
            to.safe = Math.max(to.safe, gone.safe); // it took the leaver's writes: nothing below comes any more
            gone.log.forEach((s, log) -> to.log.computeIfAbsent(s, k -> new TreeSet<>()).addAll(log));
            for (Run run : runs.values()) {
                run.reads.remove(gone.id);
                for (Read r : run.reads.values()) {
                    r.buffer.clear();
                    r.after = run.lastReleased;
                    r.safe = Long.MIN_VALUE;
                    r.reported = false;
                }
            }
        }

        void check() {
            // no gap: a committed position never passes an LCR that no session handed to the handler
            for (Map.Entry<Integer, StreamHandoff.Handled> e : committed.entrySet()) {
                for (L l : written) {
                    if (l.stream == e.getKey() && !handled.contains(l) && (l.micros < e.getValue().throughMicros()
                            || e.getValue().last() != null && l.compareTo(L.of(l.stream, e.getValue().last())) <= 0)) {
                        fail("stream " + l.stream + "'s committed position " + e.getValue() + " passed " + l
                                + ", never delivered");
                    }
                }
            }
            for (L l : written) {
                if (!handled.contains(l) && l.micros < groupWatermark) {
                    fail("the group's watermark " + groupWatermark + " passed " + l + ", never delivered");
                }
            }
        }
    }

    @Test
    void seededRuns() {
        String one = System.getProperty("tributary.sim.seed");
        if (one != null) {
            long seed = Long.parseLong(one);
            System.out.println("ConsumerSimulationTest: replaying seed " + seed);
            new Sim(seed).run(400);
            return;
        }
        int seeds = Integer.getInteger("tributary.sim.seeds", 300);
        long base = new Random().nextLong();
        System.out.println("ConsumerSimulationTest: " + seeds + " seeds from " + base);
        for (int i = 0; i < seeds; i++) {
            new Sim(base + i).run(400);
        }
    }
}
