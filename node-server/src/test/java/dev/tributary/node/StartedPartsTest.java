package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The close order of the node's assemblies, as TributaryNode.close() drives their started parts. */
@Timeout(10)
class StartedPartsTest {
    private final List<String> closed = new ArrayList<>();

    private AutoCloseable part(String name) {
        return () -> closed.add(name);
    }

    @Test
    @DisplayName("every assembly's intake stops, top first, before any part closes; then parts close in reverse of their start")
    void intakeFirstThenPartsInReverse() {
        StartedParts storage = new StartedParts();
        storage.add(part("store"));
        StartedParts captureApply = new StartedParts();
        captureApply.add(part("tls"));
        captureApply.addIntake(part("cdc capture"));
        captureApply.add(part("retention"));
        StartedParts services = new StartedParts();
        services.addIntake(part("grpc"));
        services.addIntake(part("native"));
        StartedParts.closeAll(List.of(storage, captureApply, services));
        assertEquals(List.of("native", "grpc", "cdc capture", "retention", "tls", "store"), closed);
    }

    @Test
    @DisplayName("a part that fails to close does not keep the ones below it open; closing twice closes nothing again")
    void aFailingPartDoesNotStopTheRest() {
        StartedParts parts = new StartedParts();
        parts.add(part("first"));
        parts.add(() -> {
            throw new IllegalStateException("cannot close");
        });
        parts.add(part("last"));
        parts.close();
        parts.close();
        assertEquals(List.of("last", "first"), closed);
    }
}
