package dev.tributary.capture.lcr;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A DDL LCR: the DDL statement (not its results) with the attributes of the capture seed.
 * Equality is by value, the tag's bytes included.
 */
public record DdlLcr(String sourceDatabaseName, String commandType, String objectOwner, String objectName,
        String objectType, String ddlText, String logonUser, String currentSchema, String baseTableOwner,
        String baseTableName, byte[] tag, String transactionId, long scn, List<LcrColumn> extra) implements Lcr {
    public DdlLcr {
        extra = List.copyOf(extra);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DdlLcr l && scn == l.scn && Objects.equals(sourceDatabaseName, l.sourceDatabaseName)
                && Objects.equals(commandType, l.commandType) && Objects.equals(objectOwner, l.objectOwner)
                && Objects.equals(objectName, l.objectName) && Objects.equals(objectType, l.objectType)
                && Objects.equals(ddlText, l.ddlText) && Objects.equals(logonUser, l.logonUser)
                && Objects.equals(currentSchema, l.currentSchema) && Objects.equals(baseTableOwner, l.baseTableOwner)
                && Objects.equals(baseTableName, l.baseTableName) && Arrays.equals(tag, l.tag)
                && Objects.equals(transactionId, l.transactionId) && extra.equals(l.extra);
    }

    @Override
    public int hashCode() {
        return Objects.hash(commandType, objectOwner, objectName, ddlText, transactionId, scn) * 31 + Arrays.hashCode(tag);
    }
}
