package dev.tributary.node.processes;

import dev.tributary.capture.ProcessStatus;

/**
 * What a {@link ProcessRegistry} needs of a Streams process's definition (a capture's, an
 * apply's): an immutable value with its name, its persistent status and its stored form.
 */
public interface ProcessDefinition {
    /** The name it is stored and listed under, as its kind's name rule made it. */
    String name();

    ProcessStatus status();

    /** The stored form its kind's decoder reads back. */
    byte[] encode();
}
