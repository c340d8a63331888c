package dev.tributary.capture.apply;

import java.util.Set;

/**
 * An apply's progress as its destination holds it: the low watermark (every transaction at or
 * below it is applied or in the error queue), the transactions applied above it, and the epoch
 * of the connection that took the apply over, which fences out writes of an earlier owner.
 */
public record ApplyProgress(ApplyPosition lowWatermark, Set<ApplyPosition> above, long epoch) {
    public ApplyProgress {
        above = Set.copyOf(above);
    }
}
