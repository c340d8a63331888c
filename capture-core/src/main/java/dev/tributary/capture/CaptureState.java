package dev.tributary.capture;

/**
 * What a capture worker is doing, in the capture seed's wording (V$STREAMS_CAPTURE.STATE). MINING
 * and LOADING carry their detail in {@link CaptureWorker#stateDescription()}.
 */
public enum CaptureState {
    INITIALIZING("INITIALIZING"),
    WAITING_FOR_DICTIONARY_REDO("WAITING FOR DICTIONARY REDO"),
    DICTIONARY_INITIALIZATION("DICTIONARY INITIALIZATION"),
    MINING("MINING"),
    LOADING("LOADING"),
    CAPTURING_CHANGES("CAPTURING CHANGES"),
    WAITING_FOR_REDO("WAITING FOR REDO"),
    EVALUATING_RULE("EVALUATING RULE"),
    CREATING_LCR("CREATING LCR"),
    ENQUEUING_MESSAGE("ENQUEUING MESSAGE"),
    PAUSED_FOR_FLOW_CONTROL("PAUSED FOR FLOW CONTROL"),
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
