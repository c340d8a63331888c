package dev.tributary.node.capture;

import dev.tributary.capture.ProcessStatus;
import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.node.processes.ProcessDefinition;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A capture process as the dictionary keeps it (DBA_CAPTURE): its queue, rule sets, user, status
 * and SCNs. Immutable; changes make a new value.
 *
 * @param captureNumber the stable process number shown as {@code cnnn} (c001 to c999)
 * @param dictionaryId  the LogMiner dictionary it decodes with (shared with other captures or its own)
 * @param sourceDatabase the database whose redo it mines: null for this one (a LOCAL capture), else
 *                      a DOWNSTREAM capture of the logs that source ships here; fixed at creation
 * @param useDatabaseLink whether a downstream capture reaches its source through the database link
 *                      named after it (builds and prepares there)
 */
public record CaptureDefinition(String name, String queueName, String positiveRuleSet, String negativeRuleSet,
        String captureUser, ProcessStatus status, long firstScn, long startScn, int captureNumber, int errorNumber,
        String errorMessage, Set<String> extraAttributes, Map<String, String> parameters,
        long dictionaryId, String sourceDatabase, boolean useDatabaseLink) implements ProcessDefinition {

    /** The parameters of dbms_capture_adm.set_parameter, with their defaults. */
    public static final Map<String, String> DEFAULT_PARAMETERS = Map.of(
            "parallelism", "1", "time_limit", "INFINITE", "message_limit", "INFINITE", "disable_on_limit", "N");
    /** The extra attributes include_extra_attribute may switch on. */
    public static final Set<String> EXTRA_ATTRIBUTES =
            Set.of("row_id", "serial#", "session#", "thread#", "tx_name", "username");

    public CaptureDefinition {
        extraAttributes = Collections.unmodifiableSet(new TreeSet<>(extraAttributes));
        Map<String, String> p = new TreeMap<>(DEFAULT_PARAMETERS);
        p.putAll(parameters);
        parameters = Collections.unmodifiableMap(p);
    }

    /** With a new status, if the current one may move to it (an error is kept only with ABORTED). */
    public CaptureDefinition withStatus(ProcessStatus s) {
        status.to(s);
        return new CaptureDefinition(name, queueName, positiveRuleSet, negativeRuleSet, captureUser, s, firstScn, startScn,
                captureNumber, 0, null, extraAttributes, parameters, dictionaryId, sourceDatabase, useDatabaseLink);
    }

    public CaptureDefinition aborted(int number, String message) {
        return new CaptureDefinition(name, queueName, positiveRuleSet, negativeRuleSet, captureUser, status.to(ProcessStatus.ABORTED), firstScn,
                startScn, captureNumber, number, message, extraAttributes, parameters, dictionaryId, sourceDatabase, useDatabaseLink);
    }

    /** After alter_capture: new rule sets, SCNs and use of the database link. */
    public CaptureDefinition altered(String positive, String negative, long first, long start, boolean link) {
        return new CaptureDefinition(name, queueName, positive, negative, captureUser, status, first, start, captureNumber,
                errorNumber, errorMessage, extraAttributes, parameters, dictionaryId, sourceDatabase, link);
    }

    public CaptureDefinition withRuleSets(String positive, String negative) {
        return new CaptureDefinition(name, queueName, positive, negative, captureUser, status, firstScn, startScn,
                captureNumber, errorNumber, errorMessage, extraAttributes, parameters, dictionaryId, sourceDatabase, useDatabaseLink);
    }

    public CaptureDefinition withExtraAttribute(String attribute, boolean include) {
        Set<String> next = new TreeSet<>(extraAttributes);
        if (include) {
            next.add(attribute);
        } else {
            next.remove(attribute);
        }
        return new CaptureDefinition(name, queueName, positiveRuleSet, negativeRuleSet, captureUser, status, firstScn, startScn,
                captureNumber, errorNumber, errorMessage, next, parameters, dictionaryId, sourceDatabase, useDatabaseLink);
    }

    public CaptureDefinition withParameter(String parameter, String value) {
        Map<String, String> next = new TreeMap<>(parameters);
        next.put(parameter, value);
        return new CaptureDefinition(name, queueName, positiveRuleSet, negativeRuleSet, captureUser, status, firstScn, startScn,
                captureNumber, errorNumber, errorMessage, extraAttributes, next, dictionaryId, sourceDatabase, useDatabaseLink);
    }

    /** A numeric limit parameter (time_limit in seconds, message_limit), or -1 for INFINITE. */
    public long limit(String parameter) {
        String v = parameters.get(parameter);
        return v == null || v.equalsIgnoreCase("INFINITE") ? -1 : Long.parseLong(v);
    }

    /** Whether it mines another database's redo, received by log transport. */
    public boolean downstream() {
        return sourceDatabase != null;
    }

    /** The process name, e.g. {@code c001}. */
    public String processName() {
        return String.format("c%03d", captureNumber);
    }

    @Override
    public byte[] encode() {
        BinaryWriter w = new BinaryWriter(96);
        w.u8(3).string(name).string(queueName).string(positiveRuleSet).string(negativeRuleSet).string(captureUser)
                .u8(status.ordinal()).i64(firstScn).i64(startScn).i32(captureNumber).i32(errorNumber).string(errorMessage);
        w.varint(extraAttributes.size());
        for (String a : extraAttributes) {
            w.string(a);
        }
        w.varint(parameters.size());
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            w.string(p.getKey()).string(p.getValue());
        }
        w.i64(dictionaryId).string(sourceDatabase).u8(useDatabaseLink ? 1 : 0);
        return w.toByteArray();
    }

    static CaptureDefinition decode(byte[] bytes) {
        BinaryReader r = new BinaryReader(bytes);
        int format = r.u8();
        if (format != 2 && format != 3) {
            throw new CorruptRecordException("unknown capture definition format " + format);
        }
        String name = r.string();
        String queue = r.string();
        String pos = r.string();
        String neg = r.string();
        String user = r.string();
        ProcessStatus status = ProcessStatus.values()[r.u8()];
        long first = r.i64();
        long start = r.i64();
        int number = r.i32();
        int errNo = r.i32();
        String errMsg = r.string();
        Set<String> extra = new TreeSet<>();
        for (int i = r.count(); i > 0; i--) {
            extra.add(r.string());
        }
        Map<String, String> params = new TreeMap<>();
        for (int i = r.count(); i > 0; i--) {
            params.put(r.string(), r.string());
        }
        long dictionaryId = r.i64();
        String source = format >= 3 ? r.string() : null; // format 2 knew local captures only
        boolean link = format >= 3 && r.u8() == 1;
        r.expectEnd();
        return new CaptureDefinition(name, queue, pos, neg, user, status, first, start, number, errNo, errMsg, extra, params,
                dictionaryId, source, link);
    }
}
