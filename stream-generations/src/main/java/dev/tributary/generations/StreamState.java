package dev.tributary.generations;

/**
 * The {@code stream_state} column of {@code system.cdc_streams}, with ScyllaDB's codes.
 */
public enum StreamState {
    /** The stream belongs to the stream set operating from this timestamp. */
    CURRENT(0),
    /** The stream belonged to the previous stream set and is not used from this timestamp on. */
    CLOSED(1),
    /** The stream is used from this timestamp on and was not in the previous stream set. */
    OPENED(2);

    private final int code;

    StreamState(int code) {
        this.code = code;
    }

    /** The tinyint stored in {@code stream_state}. */
    public int code() {
        return code;
    }

    /**
     * The state with this code.
     *
     * @throws IllegalArgumentException for any other value, with ScyllaDB's message
     */
    public static StreamState fromCode(int code) {
        for (StreamState state : values()) {
            if (state.code == code) {
                return state;
            }
        }
        throw new IllegalArgumentException("invalid value " + code + " for stream state");
    }
}
