package dev.tributary.capture.apply;

import dev.tributary.capture.lcr.DdlLcr;
import java.util.Objects;

/**
 * A DDL LCR an apply process did not apply because its destination cannot carry out that kind of
 * operation (the capture seed: "the apply process ignores the DDL LCR and records information
 * about it in the trace file"). The rest of its transaction applies and the apply goes on; the
 * record is what the operator reads to carry the DDL over by hand. Immutable.
 *
 * @param reason what the destination cannot do, in words
 */
public record IgnoredDdl(String apply, String sourceDatabase, long scn, String transactionId, String commandType,
        String objectOwner, String objectName, String ddlText, String reason) {
    public IgnoredDdl {
        Objects.requireNonNull(apply, "apply");
        Objects.requireNonNull(ddlText, "ddlText");
        Objects.requireNonNull(reason, "reason");
    }

    public static IgnoredDdl of(String apply, DdlLcr lcr, String reason) {
        return new IgnoredDdl(apply, lcr.sourceDatabaseName(), lcr.scn(), lcr.transactionId(), lcr.commandType(),
                lcr.objectOwner(), lcr.objectName(), lcr.ddlText(), reason);
    }

    /** Told of each DDL LCR an apply ignores. Called on the apply's thread; must not block for long. */
    @FunctionalInterface
    public interface Sink {
        void ignored(IgnoredDdl ddl);
    }
}
