package dev.tributary.capture.lcr;

import java.util.List;

/** A DDL LCR: the DDL statement (not its results) with the attributes of the capture seed. */
public record DdlLcr(String sourceDatabaseName, String commandType, String objectOwner, String objectName,
        String objectType, String ddlText, String logonUser, String currentSchema, String baseTableOwner,
        String baseTableName, byte[] tag, String transactionId, long scn, List<LcrColumn> extra) implements Lcr {
    public DdlLcr {
        extra = List.copyOf(extra);
    }
}
