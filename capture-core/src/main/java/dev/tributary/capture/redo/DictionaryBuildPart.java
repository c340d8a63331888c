package dev.tributary.capture.redo;

/**
 * One redo record of a dictionary build ({@code dbms_capture_adm.build}): part 1 is the
 * dictionary-begin record, whose SCN is the build's SCN (a valid first SCN); the last part is the
 * dictionary-end record. The payload is a slice of the encoded dictionary
 * ({@link dev.tributary.dictionary.logminer.DictionaryBuilds}).
 *
 * @param buildScn the SCN of the build's dictionary-begin record
 * @param part     1-based
 * @param parts    how many records the build has
 */
public record DictionaryBuildPart(long buildScn, int part, int parts, byte[] payload) {
    public DictionaryBuildPart {
        if (part < 1 || part > parts) {
            throw new IllegalArgumentException("dictionary build part " + part + " of " + parts);
        }
    }

    public boolean begin() {
        return part == 1;
    }

    public boolean end() {
        return part == parts;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DictionaryBuildPart p && p.buildScn == buildScn && p.part == part && p.parts == parts
                && java.util.Arrays.equals(p.payload, payload);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(buildScn) * 31 + part;
    }
}
