package dev.tributary.rules;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The parameters a system-made rule was generated from (what DBA_STREAMS_RULES shows):
 * schema and object in rule form (absent for global and, for the object, schema rules), for subset
 * rules the operation, the dml_condition and the CQL columns it reads, include_tagged_lcr, the
 * source database, the and_condition, and the condition as generated. Immutable.
 */
public record SystemRuleSpec(Optional<String> schemaName, Optional<String> objectName,
                             Optional<SubsetOperation> subsettingOperation, Optional<String> dmlCondition,
                             Set<String> subsetColumns, boolean includeTaggedLcr, String sourceDatabase,
                             Optional<String> andCondition, String originalCondition) {
    public SystemRuleSpec {
        Objects.requireNonNull(schemaName, "schemaName");
        Objects.requireNonNull(objectName, "objectName");
        Objects.requireNonNull(subsettingOperation, "subsettingOperation");
        Objects.requireNonNull(dmlCondition, "dmlCondition");
        subsetColumns = Set.copyOf(subsetColumns);
        Objects.requireNonNull(sourceDatabase, "sourceDatabase");
        Objects.requireNonNull(andCondition, "andCondition");
        Objects.requireNonNull(originalCondition, "originalCondition");
    }
}
