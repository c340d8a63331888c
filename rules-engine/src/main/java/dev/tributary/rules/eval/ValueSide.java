package dev.tributary.rules.eval;

/** Which image of a row a column value comes from, as in {@code get_value('OLD'|'NEW', col)}. */
public enum ValueSide {
    OLD,
    NEW
}
