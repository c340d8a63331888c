package dev.tributary.capture.redo;

import dev.tributary.dictionary.DictionaryChange;

/**
 * The redo of a DDL statement: the dictionary change itself (so a capture can keep its own
 * dictionary from the redo alone) plus the attributes a DDL LCR carries.
 */
public record DdlChange(DictionaryChange change, String commandType, String objectOwner,
        String objectName, String objectType, String ddlText, String currentSchema,
        String baseTableOwner, String baseTableName) {
}
