package dev.tributary.rules.internal;

/**
 * The value of an expression whose input is not known: an attribute a partial input lacks, or a
 * column absent from the LCR. Distinct from {@code null}, which is SQL NULL and known.
 */
public enum Unknown {
    VALUE
}
