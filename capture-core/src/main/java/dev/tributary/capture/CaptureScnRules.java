package dev.tributary.capture;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The capture seed's SCN rules, without storage or threads: the first and start SCN of a new
 * capture ("First SCN and Start SCN Specifications During Capture Process Creation"), how
 * alter_capture may move them (Figures 2-4 and 2-5), where a capture's first scan begins, and
 * the purge rule (redo a capture may still need). The node keeps the definitions and checkpoints
 * and asks here; every answer depends only on the arguments.
 */
public final class CaptureScnRules {
    private CaptureScnRules() {
    }

    /** What the rules need to know of an existing capture. */
    public record Existing(String name, long firstScn, long dictionaryId, boolean tookCheckpoint, long checkpointScn) {
    }

    /** What create_capture decided: where the first SCN comes from, and the start SCN. */
    public sealed interface Creation {
        long startScn();

        /** A first SCN was given: a new LogMiner dictionary from the build at it (checked when the capture starts). */
        record AtFirstScn(long firstScn, long startScn) implements Creation {
        }

        /**
         * No first SCN and no capture to share with: a build runs now, its SCN is the first SCN,
         * and the start SCN is raised to it if lower ({@link #startScn(long)}).
         */
        record NewBuild(long requestedStartScn) implements Creation {
            @Override
            public long startScn() {
                return requestedStartScn;
            }

            public long startScn(long buildScn) {
                return Math.max(requestedStartScn, buildScn);
            }
        }

        /** No first SCN: the new capture shares the LogMiner dictionary of a capture that took a checkpoint. */
        record Shared(Existing with, long startScn) implements Creation {
            public long firstScn() {
                return with.firstScn();
            }
        }
    }

    /**
     * create_capture's SCN cases for a local capture (CAP-SCN-5, -6, -7, -9).
     *
     * @param firstScn   the first SCN given, or null
     * @param startScn   the start SCN given, or null
     * @param currentScn the database's current SCN
     * @param existing   the captures there are
     * @throws CaptureScnException when the combination is refused, saying why
     */
    public static Creation create(String name, Long firstScn, Long startScn, long currentScn, List<Existing> existing) {
        if (firstScn != null) {
            long start = startScn == null ? firstScn : startScn;
            if (start < firstScn) {
                throw new CaptureScnException("create_capture " + name + ": start_scn " + start + " is below first_scn "
                        + firstScn + "; the start SCN must be greater than or equal to the first SCN");
            }
            return new Creation.AtFirstScn(firstScn, start);
        }
        long start = startScn == null ? currentScn : startScn;
        List<Existing> checkpointed = existing.stream().filter(Existing::tookCheckpoint).toList();
        if (checkpointed.isEmpty()) {
            if (start < currentScn) {
                throw new CaptureScnException("create_capture " + name + ": start_scn " + start
                        + " is below the current SCN " + currentScn + " and no capture process has taken a checkpoint "
                        + "whose LogMiner dictionary it could share; give a first_scn from dbms_capture_adm.build, or a "
                        + "start_scn at or above the current SCN");
            }
            return new Creation.NewBuild(start);
        }
        if (existing.stream().allMatch(c -> start < c.firstScn())) {
            throw new CaptureScnException("create_capture " + name + ": start_scn " + start
                    + " is lower than the first SCN of every existing capture process");
        }
        // of those that may share (first SCN at or below the start SCN), the one furthest ahead
        Existing shared = checkpointed.stream().filter(c -> c.firstScn() <= start)
                .max(Comparator.comparingLong(Existing::checkpointScn))
                .orElseThrow(() -> new CaptureScnException("create_capture " + name + ": no capture process with a "
                        + "first SCN at or below start_scn " + start + " has been started, so there is no LogMiner "
                        + "dictionary to share"));
        return new Creation.Shared(shared, start);
    }

    /**
     * create_capture's SCN cases for a downstream capture (CAP-SCN-8, CAP-DS-3). A first SCN given
     * is taken as for a local capture. Without one, the source must be reached through its
     * database link: there the local rules apply with the source's current SCN (a build runs at
     * the source, or a capture of the same source shares its dictionary); without a link a
     * capture of the same source that took a checkpoint shares its dictionary all the same (from
     * a start SCN given), and otherwise the build is the operator's to run at the source, and its
     * SCN must be given.
     *
     * @param sourceCurrentScn the source's current SCN through the database link, or empty without one
     * @param sameSource       the captures of the same source database
     */
    public static Creation createDownstream(String name, String sourceDatabase, Long firstScn, Long startScn,
            java.util.OptionalLong sourceCurrentScn, List<Existing> sameSource) {
        if (firstScn == null && sourceCurrentScn.isEmpty()) {
            if (sameSource.stream().noneMatch(Existing::tookCheckpoint)) {
                throw new CaptureScnException("create_capture " + name + ": a downstream capture of " + sourceDatabase
                        + " without a database link needs a first_scn: run dbms_capture_adm.build at " + sourceDatabase
                        + " and give the SCN it returns (or create it with use_database_link => true)");
            }
            // a capture of the source that took a checkpoint has a dictionary to share, "regardless of the
            // use_database_link parameter setting"; without the link the source's current SCN is unknown
            if (startScn == null) {
                throw new CaptureScnException("create_capture " + name + ": without a database link to " + sourceDatabase
                        + " the new capture shares the LogMiner dictionary of a capture of " + sourceDatabase
                        + " and needs a start_scn (the source's current SCN cannot be read here)");
            }
            return create(name, null, startScn, Long.MIN_VALUE, sameSource);
        }
        return create(name, firstScn, startScn, sourceCurrentScn.orElse(Long.MIN_VALUE), sameSource);
    }

    /** A capture's first and start SCN. */
    public record Scns(long firstScn, long startScn) {
    }

    /**
     * alter_capture (CAP-SCN-10, CAP-SCN-3): the first SCN may only be raised, and not above the
     * required checkpoint SCN plus one; raising it above the start SCN moves the start SCN up with
     * it; a new start SCN may not be below the first SCN.
     *
     * @param requiredCheckpoint the capture's checkpoint SCN (0: none taken)
     */
    public static Scns alter(String name, Scns now, long requiredCheckpoint, Long newFirstScn, Long newStartScn) {
        long first = now.firstScn();
        long start = now.startScn();
        if (newFirstScn != null) {
            if (newFirstScn < first) {
                throw new CaptureScnException("first_scn of " + name + " can only be raised: it is " + first + ", "
                        + newFirstScn + " is lower");
            }
            if (requiredCheckpoint > 0 && newFirstScn > requiredCheckpoint + 1) {
                throw new CaptureScnException("first_scn " + newFirstScn + " of " + name
                        + " is above its required checkpoint SCN " + requiredCheckpoint);
            }
            first = newFirstScn;
            start = Math.max(start, first);
        }
        if (newStartScn != null) {
            if (newStartScn < first) {
                throw new CaptureScnException("start_scn " + newStartScn + " of " + name + " is below its first SCN " + first
                        + "; the start SCN must be greater than or equal to the first SCN");
            }
            start = newStartScn;
        }
        return new Scns(first, start);
    }

    /**
     * Where a capture that never took a checkpoint scans from (its initial checkpoint, the SCN
     * below the first one read): a new dictionary is mined from its build; a shared one is
     * current up to the furthest checkpoint of the captures sharing it, so scanning starts there
     * or at the start SCN, the lower.
     *
     * @param dictionaryLoaded   whether the LogMiner dictionary has been built from the redo
     * @param buildScn           the SCN of the dictionary's build
     * @param sharersCheckpoint  the furthest checkpoint of the captures sharing the dictionary (0: none)
     */
    public static long initialCheckpoint(Scns scns, boolean dictionaryLoaded, long buildScn, long sharersCheckpoint) {
        if (!dictionaryLoaded) {
            return buildScn - 1;
        }
        return Math.min(scns.startScn() - 1, Math.max(sharersCheckpoint, scns.firstScn() - 1));
    }

    /**
     * The purge rule (CAP-SCN-2, CAP-CKPT): the highest SCN no capture will read again — the lowest
     * checkpoint, or for a capture that never took one the SCN right below its first SCN. Redo at
     * or below it may be purged; {@link Long#MAX_VALUE} when there is no capture.
     */
    public static long requiredScn(List<Existing> captures) {
        long min = Long.MAX_VALUE;
        for (Existing c : captures) {
            min = Math.min(min, c.checkpointScn() > 0 ? c.checkpointScn() : c.firstScn() - 1);
        }
        return min;
    }

    /**
     * The SCN below which a LogMiner dictionary may be purged after a first SCN was raised: the
     * lowest first SCN of the captures sharing it, if above its build.
     */
    public static Optional<Long> dictionaryPurgeBelow(long dictionaryId, long buildScn, List<Existing> captures) {
        long lowest = captures.stream().filter(c -> c.dictionaryId() == dictionaryId).mapToLong(Existing::firstScn).min()
                .orElse(Long.MIN_VALUE);
        return lowest > buildScn ? Optional.of(lowest) : Optional.empty();
    }
}
