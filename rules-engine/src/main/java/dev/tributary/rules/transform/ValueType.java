package dev.tributary.rules.transform;

/** Which images a column transformation touches: Oracle's value_type 'NEW', 'OLD' or '*'. */
public enum ValueType {
    NEW,
    OLD,
    /** Both images, written {@code '*'}. */
    BOTH;

    public boolean touchesOld() {
        return this != NEW;
    }

    public boolean touchesNew() {
        return this != OLD;
    }

    /** As dbms_streams_adm writes it: NEW, OLD or *. */
    public String sql() {
        return this == BOTH ? "*" : name();
    }

    /** Parses NEW, OLD or * (case-insensitive). */
    public static ValueType parse(String text) {
        String t = text.strip();
        if (t.equals("*")) {
            return BOTH;
        }
        if (t.equalsIgnoreCase("NEW")) {
            return NEW;
        }
        if (t.equalsIgnoreCase("OLD")) {
            return OLD;
        }
        throw new dev.tributary.rules.errors.InvalidRuleArgumentException("value_type must be 'NEW', 'OLD' or '*', not '" + text + "'");
    }
}
