package dev.tributary.rules;

/** The kind of Streams client a rule set belongs to; Tributary has capture processes. */
public enum StreamsType {
    CAPTURE
}
