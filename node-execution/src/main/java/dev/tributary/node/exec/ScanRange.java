package dev.tributary.node.exec;

import java.util.List;

/**
 * What part of a table a scan reads: given partitions (by their key values, in the table's
 * partition-key order), or a token range (inclusive bounds), or everything.
 */
public record ScanRange(List<List<Object>> partitions, long minToken, long maxToken) {
    public static final ScanRange ALL = new ScanRange(null, Long.MIN_VALUE, Long.MAX_VALUE);

    public boolean byPartition() {
        return partitions != null;
    }

    public boolean containsToken(long t) {
        return t >= minToken && t <= maxToken;
    }
}
