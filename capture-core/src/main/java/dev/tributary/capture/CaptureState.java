package dev.tributary.capture;

/** What a capture worker is doing, in the capture seed's wording (V$STREAMS_CAPTURE.STATE). */
public enum CaptureState {
    INITIALIZING("INITIALIZING"),
    CAPTURING_CHANGES("CAPTURING CHANGES"),
    WAITING_FOR_REDO("WAITING FOR REDO"),
    ENQUEUING_MESSAGE("ENQUEUING MESSAGE"),
    SHUTTING_DOWN("SHUTTING DOWN"),
    ABORTED("ABORTED");

    private final String wording;

    CaptureState(String wording) {
        this.wording = wording;
    }

    public String wording() {
        return wording;
    }
}
