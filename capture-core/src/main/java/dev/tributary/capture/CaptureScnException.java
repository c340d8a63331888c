package dev.tributary.capture;

/** A capture's first or start SCN refused by the capture seed's rules; the message says which rule. */
public final class CaptureScnException extends RuntimeException {
    public CaptureScnException(String message) {
        super(message);
    }
}
