package dev.tributary.bench;

import java.util.Locale;

/**
 * The durability mode a run measures: the node's {@code --commitlog-sync}, and the sync policy
 * the baseline uses to match it.
 */
public enum Durability {
    /** Acknowledged after the WAL is fsynced (group commit); the baseline fsyncs after every batch. */
    BATCH("batch", "a write is acknowledged only after its WAL is fsynced (group commit); the baseline fsyncs the WAL after every batch"),
    /** Acknowledged once in the WAL (page cache), fsynced every period; the baseline never fsyncs. */
    PERIODIC("periodic", "a write is acknowledged once it is in the WAL (OS page cache), fsynced every 10s; the baseline never fsyncs");

    private final String flag;
    private final String description;

    Durability(String flag, String description) {
        this.flag = flag;
        this.description = description;
    }

    /** The value of {@code --commitlog-sync}. */
    public String flag() {
        return flag;
    }

    /** One sentence saying what an acknowledgement guarantees in this mode. */
    public String description() {
        return description;
    }

    /** @throws IllegalArgumentException naming the value when it is neither batch nor periodic */
    public static Durability parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (Durability d : values()) {
            if (d.flag.equals(t)) {
                return d;
            }
        }
        throw new IllegalArgumentException("--commitlog-sync is batch or periodic, got '" + text + "'");
    }
}
