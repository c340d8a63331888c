package dev.tributary.node.storage;

import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A base row as stored: an optional row marker (INSERT makes one, so a row with only NULL
 * regular columns still exists, as in CQL) and one cell per non-NULL regular column, keyed by
 * internal column number. Immutable.
 */
public record StoredRow(long markerWriteTime, long markerExpiryMillis, Map<Integer, Cell> cells) {
    public static final long NO_MARKER = Long.MIN_VALUE;

    /**
     * A column value with its write time (micros) and expiry (epoch millis; 0 = never). Equal by
     * value, the bytes included, so a decoded row equals the row encoded.
     */
    public record Cell(byte[] value, long writeTime, long expiryMillis) {
        public boolean liveAt(long nowMillis) {
            return expiryMillis == 0 || expiryMillis > nowMillis;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Cell c && c.writeTime == writeTime && c.expiryMillis == expiryMillis
                    && java.util.Arrays.equals(c.value, value);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(value) * 31 + Long.hashCode(writeTime);
        }

        @Override
        public String toString() {
            return "Cell[" + (value == null ? "null" : value.length + "B") + " @" + writeTime
                    + (expiryMillis == 0 ? "" : " expires " + expiryMillis) + "]";
        }
    }

    public StoredRow {
        cells = Collections.unmodifiableMap(new LinkedHashMap<>(cells));
    }

    public static StoredRow empty() {
        return new StoredRow(NO_MARKER, 0, Map.of());
    }

    public boolean hasLiveMarker(long nowMillis) {
        return markerWriteTime != NO_MARKER && (markerExpiryMillis == 0 || markerExpiryMillis > nowMillis);
    }

    /** A row exists while it has a live marker or a live cell. */
    public boolean liveAt(long nowMillis) {
        if (hasLiveMarker(nowMillis)) {
            return true;
        }
        for (Cell c : cells.values()) {
            if (c.liveAt(nowMillis)) {
                return true;
            }
        }
        return false;
    }

    /**
     * This row and another copy of it, as if both had been written here: the newer row marker and,
     * column by column, the cell with the later write time (last write wins, as on one node).
     */
    public StoredRow merge(StoredRow other) {
        boolean mine = markerWriteTime >= other.markerWriteTime;
        Map<Integer, Cell> merged = new LinkedHashMap<>(cells);
        for (Map.Entry<Integer, Cell> e : other.cells.entrySet()) {
            Cell here = merged.get(e.getKey());
            if (here == null || e.getValue().writeTime() > here.writeTime()) {
                merged.put(e.getKey(), e.getValue());
            }
        }
        return new StoredRow(mine ? markerWriteTime : other.markerWriteTime,
                mine ? markerExpiryMillis : other.markerExpiryMillis, merged);
    }

    public byte[] encode() {
        // sized exactly: the committer encodes every row it writes, and the writer then hands over
        // its buffer instead of copying it
        int size = 1 + 8 + 8 + BinaryWriter.varintSize(cells.size());
        for (Map.Entry<Integer, Cell> e : cells.entrySet()) {
            size += BinaryWriter.varintSize(e.getKey()) + 8 + 8 + BinaryWriter.bytesSize(e.getValue().value());
        }
        BinaryWriter w = new BinaryWriter(size);
        w.u8(1).i64(markerWriteTime).i64(markerExpiryMillis).varint(cells.size());
        for (Map.Entry<Integer, Cell> e : cells.entrySet()) {
            Cell c = e.getValue();
            w.varint(e.getKey()).i64(c.writeTime()).i64(c.expiryMillis()).bytes(c.value());
        }
        return w.toByteArray();
    }

    public static StoredRow decode(byte[] bytes) {
        BinaryReader r = new BinaryReader(bytes);
        int format = r.u8();
        if (format != 1) {
            throw new dev.tributary.dictionary.io.CorruptRecordException("unknown row format " + format);
        }
        long marker = r.i64();
        long markerExpiry = r.i64();
        int n = r.count();
        Map<Integer, Cell> cells = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            int col = (int) r.varint();
            long wt = r.i64();
            long exp = r.i64();
            cells.put(col, new Cell(r.bytes(), wt, exp));
        }
        r.expectEnd();
        return new StoredRow(marker, markerExpiry, cells);
    }
}
