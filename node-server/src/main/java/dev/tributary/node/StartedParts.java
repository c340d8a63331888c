package dev.tributary.node;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one assembly of the node started, to stop in reverse: first the parts that take work in
 * (the fronts' calls, the redo the CDC capture mines), so nothing new arrives while the rest
 * closes, then every other part. The node keeps one per assembly, made before the assembly
 * starts, so a start that fails half way still stops what it started. Used from the thread that
 * starts and closes the node.
 */
final class StartedParts {
    private static final Logger LOG = LoggerFactory.getLogger(StartedParts.class);

    private final List<AutoCloseable> intake = new ArrayList<>();
    private final List<AutoCloseable> parts = new ArrayList<>();

    /** A part that takes work in: stopped, in reverse, before any part of the node is closed. */
    void addIntake(AutoCloseable part) {
        intake.add(part);
    }

    /** A part closed, in reverse of the order added, once every assembly stopped its intake. */
    <T extends AutoCloseable> T add(T part) {
        parts.add(part);
        return part;
    }

    void stopIntake() {
        closeReversed(intake);
    }

    void close() {
        closeReversed(parts);
    }

    /**
     * Stops a node's assemblies, given lowest first: every intake, top assembly first, so no call
     * or redo comes in while anything closes; then every assembly's parts, top assembly first.
     */
    static void closeAll(List<StartedParts> assemblies) {
        for (int i = assemblies.size() - 1; i >= 0; i--) {
            assemblies.get(i).stopIntake();
        }
        for (int i = assemblies.size() - 1; i >= 0; i--) {
            assemblies.get(i).close();
        }
    }

    // one failing part must not keep the ones below it open
    private static void closeReversed(List<AutoCloseable> list) {
        for (int i = list.size() - 1; i >= 0; i--) {
            try {
                list.get(i).close();
            } catch (Exception e) {
                LOG.warn("error while closing {}: {}", list.get(i).getClass().getSimpleName(), e.toString());
            }
        }
        list.clear();
    }
}
