package dev.tributary.node.capture;

import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;

/**
 * A capture process as the dictionary keeps it (DBA_CAPTURE): its queue, rule sets, user, status
 * and SCNs. Immutable; changes make a new value.
 *
 * @param captureNumber the stable process number shown as {@code cnnn} (c001 to c999)
 */
public record CaptureDefinition(String name, String queueName, String positiveRuleSet, String negativeRuleSet,
        String captureUser, Status status, long firstScn, long startScn, int captureNumber, int errorNumber,
        String errorMessage) {

    /** DBA_CAPTURE.STATUS. */
    public enum Status { ENABLED, DISABLED, ABORTED }

    public CaptureDefinition withStatus(Status s) {
        return new CaptureDefinition(name, queueName, positiveRuleSet, negativeRuleSet, captureUser, s, firstScn, startScn,
                captureNumber, s == Status.ABORTED ? errorNumber : 0, s == Status.ABORTED ? errorMessage : null);
    }

    public CaptureDefinition aborted(int number, String message) {
        return new CaptureDefinition(name, queueName, positiveRuleSet, negativeRuleSet, captureUser, Status.ABORTED, firstScn,
                startScn, captureNumber, number, message);
    }

    public CaptureDefinition withRuleSets(String positive, String negative) {
        return new CaptureDefinition(name, queueName, positive, negative, captureUser, status, firstScn, startScn,
                captureNumber, errorNumber, errorMessage);
    }

    /** The process name, e.g. {@code c001}. */
    public String processName() {
        return String.format("c%03d", captureNumber);
    }

    byte[] encode() {
        BinaryWriter w = new BinaryWriter(96);
        w.u8(1).string(name).string(queueName).string(positiveRuleSet).string(negativeRuleSet).string(captureUser)
                .u8(status.ordinal()).i64(firstScn).i64(startScn).i32(captureNumber).i32(errorNumber).string(errorMessage);
        return w.toByteArray();
    }

    static CaptureDefinition decode(byte[] bytes) {
        BinaryReader r = new BinaryReader(bytes);
        int format = r.u8();
        if (format != 1) {
            throw new dev.tributary.dictionary.io.CorruptRecordException("unknown capture definition format " + format);
        }
        CaptureDefinition d = new CaptureDefinition(r.string(), r.string(), r.string(), r.string(), r.string(),
                Status.values()[r.u8()], r.i64(), r.i64(), r.i32(), r.i32(), r.string());
        r.expectEnd();
        return d;
    }
}
