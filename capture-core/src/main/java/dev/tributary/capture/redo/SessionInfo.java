package dev.tributary.capture.redo;

/**
 * Who made a change: the LCR's extra attributes username, session#, serial# and thread# come
 * from here. {@code threadNumber} is the node's redo thread.
 */
public record SessionInfo(String username, long sessionNumber, long serialNumber, int threadNumber) {
    public static final SessionInfo SYSTEM = new SessionInfo("system", 0, 0, 0);
}
