package dev.tributary.dictionary.logminer;

import dev.tributary.dictionary.DictionaryCodec;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.io.CorruptRecordException;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a dictionary build ({@code dbms_capture_adm.build}) lays the dictionary into the redo: the
 * encoded version cut into parts of bounded size, so a large dictionary becomes many redo
 * records between the dictionary-begin (part 1) and dictionary-end (the last part) records,
 * and a capture reassembles it. Stateless.
 */
public final class DictionaryBuilds {
    /** The size of a build part: redo records stay small whatever the number of objects. */
    public static final int PART_BYTES = 16 * 1024;

    private DictionaryBuilds() {
    }

    /** The parts of a build of {@code version}; there is always at least one. */
    public static List<byte[]> split(DictionaryVersion version, int partBytes) {
        if (partBytes <= 0) {
            throw new IllegalArgumentException("part size must be positive, got " + partBytes);
        }
        byte[] all = DictionaryCodec.encode(version);
        List<byte[]> parts = new ArrayList<>();
        for (int from = 0; from < all.length; from += partBytes) {
            parts.add(Arrays.copyOfRange(all, from, Math.min(all.length, from + partBytes)));
        }
        return parts;
    }

    /**
     * The dictionary of a build from its parts, in order.
     *
     * @throws CorruptRecordException if the parts do not make one encoded version
     */
    public static DictionaryVersion assemble(List<byte[]> parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            all.writeBytes(p);
        }
        try {
            return DictionaryCodec.decodeVersion(all.toByteArray());
        } catch (RuntimeException e) {
            CorruptRecordException c = new CorruptRecordException("the dictionary build (" + parts.size()
                    + " parts) does not decode: " + e.getMessage());
            c.initCause(e);
            throw c;
        }
    }
}
