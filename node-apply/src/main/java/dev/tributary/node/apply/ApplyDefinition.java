package dev.tributary.node.apply;

import dev.tributary.capture.ProcessStatus;
import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.node.processes.ProcessDefinition;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * An apply process as the dictionary keeps it (DBA_APPLY): its queue, destination, status and
 * parameters. Immutable; changes make a new value.
 *
 * @param databaseLink the link to the destination, or null to apply into this cluster
 */
public record ApplyDefinition(String name, String queueName, boolean applyCaptured, String databaseLink, String applyUser,
        ProcessStatus status, int errorNumber, String errorMessage, Map<String, String> parameters) implements ProcessDefinition {
    /** The parameters of dbms_apply_adm.set_parameter, with Oracle's defaults. */
    public static final Map<String, String> DEFAULT_PARAMETERS = Map.of("parallelism", "1", "disable_on_error", "Y",
            "commit_serialization", "DEPENDENT_TRANSACTIONS");

    public ApplyDefinition {
        Map<String, String> p = new TreeMap<>(DEFAULT_PARAMETERS);
        p.putAll(parameters);
        parameters = Collections.unmodifiableMap(p);
    }

    public ApplyDefinition withStatus(ProcessStatus s) {
        return new ApplyDefinition(name, queueName, applyCaptured, databaseLink, applyUser, status.to(s), 0, null, parameters);
    }

    public ApplyDefinition aborted(int number, String message) {
        return new ApplyDefinition(name, queueName, applyCaptured, databaseLink, applyUser, status.to(ProcessStatus.ABORTED),
                number, message, parameters);
    }

    public ApplyDefinition withParameter(String parameter, String value) {
        Map<String, String> next = new TreeMap<>(parameters);
        next.put(parameter, value);
        return new ApplyDefinition(name, queueName, applyCaptured, databaseLink, applyUser, status, errorNumber, errorMessage,
                next);
    }

    public boolean disableOnError() {
        return parameters.get("disable_on_error").equals("Y");
    }

    public int parallelism() {
        return Integer.parseInt(parameters.get("parallelism"));
    }

    /** commit_serialization FULL: commit in source order. */
    public boolean fullSerialization() {
        return parameters.get("commit_serialization").equals("FULL");
    }

    @Override
    public byte[] encode() {
        BinaryWriter w = new BinaryWriter(96);
        w.u8(1).string(name).string(queueName).u8(applyCaptured ? 1 : 0).string(databaseLink).string(applyUser)
                .u8(status.ordinal()).i32(errorNumber).string(errorMessage);
        w.varint(parameters.size());
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            w.string(p.getKey()).string(p.getValue());
        }
        return w.toByteArray();
    }

    static ApplyDefinition decode(byte[] bytes) {
        BinaryReader r = new BinaryReader(bytes);
        int format = r.u8();
        if (format != 1) {
            throw new CorruptRecordException("unknown apply definition format " + format);
        }
        String name = r.string();
        String queue = r.string();
        boolean captured = r.u8() == 1;
        String link = r.string();
        String user = r.string();
        ProcessStatus status = ProcessStatus.values()[r.u8()];
        int errNo = r.i32();
        String errMsg = r.string();
        Map<String, String> params = new TreeMap<>();
        for (int i = r.count(); i > 0; i--) {
            params.put(r.string(), r.string());
        }
        r.expectEnd();
        return new ApplyDefinition(name, queue, captured, link, user, status, errNo, errMsg, params);
    }
}
