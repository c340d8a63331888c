package dev.tributary.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Capture lag at one moment of the measured phase.
 *
 * @param seconds       since the writers started
 * @param acknowledged  rows acknowledged to the writers
 * @param delivered     LCRs received by the consumers
 * @param captured      LCRs the node's CDC capture had enqueued into the log (in-process runs), or null
 * @param lagMillis     how far behind the writers the consumers were: now minus the time the first
 *                      row whose LCR they lack was acknowledged (0 when they lack none)
 * @param captureLagMillis the same for the capture's enqueued count, or null when unknown
 */
public record LagSample(double seconds, long acknowledged, Long captured, long delivered, long lagMillis,
        Long captureLagMillis) {
    /** Acknowledged rows whose LCR has not arrived. */
    public long backlog() {
        return Math.max(0, acknowledged - delivered);
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t_s", seconds);
        m.put("acked", acknowledged);
        m.put("captured", captured);
        m.put("delivered", delivered);
        m.put("backlog", backlog());
        m.put("lag_ms", lagMillis);
        m.put("capture_lag_ms", captureLagMillis);
        return m;
    }
}
