package dev.tributary.capture.apply;

/** What a running apply process is doing now, with the wording of V$STREAMS_APPLY_COORDINATOR where it has one. */
public enum ApplyState {
    INITIALIZING("INITIALIZING"),
    IDLE("IDLE"),
    APPLYING("APPLYING"),
    WAITING_FOR_DESTINATION("WAITING FOR DESTINATION"),
    SHUTTING_DOWN("SHUTTING DOWN CLEANLY");

    private final String label;

    ApplyState(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
