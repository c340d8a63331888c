package dev.tributary.node.grpc;

import com.google.protobuf.ByteString;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The wire forms of what every LCR repeats: column names, type names, owners and object names.
 * Encoding them once keeps the per-column UTF-8 work out of the change stream (the
 * profile of the live consumer put it first). Bounded: a schema churning past the bound starts
 * the cache over rather than growing it. Thread-safe.
 */
final class WireCache {
    private static final int MAX_ENTRIES = 65_536;
    private static final ConcurrentHashMap<String, ByteString> TEXT = new ConcurrentHashMap<>();

    private WireCache() {
    }

    /** The UTF-8 bytes of a string that recurs across LCRs (not of per-row data). */
    static ByteString text(String s) {
        ByteString b = TEXT.get(s);
        if (b == null) {
            b = ByteString.copyFromUtf8(s);
            if (TEXT.size() >= MAX_ENTRIES) {
                TEXT.clear();
            }
            TEXT.put(s, b);
        }
        return b;
    }
}
