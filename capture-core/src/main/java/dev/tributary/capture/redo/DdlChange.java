package dev.tributary.capture.redo;

import dev.tributary.dictionary.DictionaryChange;

/**
 * The redo of a DDL statement: the dictionary change itself (so a capture can keep its own
 * dictionary from the redo alone) plus the attributes a DDL LCR carries.
 *
 * @param replicated the statement ran on another node and reached this one through the cluster's
 *                   schema log: every node's redo has it (its captures keep their dictionaries
 *                   with it), but only the issuing node's puts it in a table's CDC log, which is
 *                   one log for the whole cluster
 */
public record DdlChange(DictionaryChange change, String commandType, String objectOwner,
        String objectName, String objectType, String ddlText, String currentSchema,
        String baseTableOwner, String baseTableName, boolean replicated) {

    /** A DDL issued on this node. */
    public DdlChange(DictionaryChange change, String commandType, String objectOwner, String objectName, String objectType,
            String ddlText, String currentSchema, String baseTableOwner, String baseTableName) {
        this(change, commandType, objectOwner, objectName, objectType, ddlText, currentSchema, baseTableOwner, baseTableName,
                false);
    }

    /** The same change, as another node applies it from the schema log. */
    public DdlChange asReplicated() {
        return new DdlChange(change, commandType, objectOwner, objectName, objectType, ddlText, currentSchema, baseTableOwner,
                baseTableName, true);
    }
}
