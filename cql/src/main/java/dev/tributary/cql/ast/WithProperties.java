package dev.tributary.cql.ast;

import java.util.Map;

/** {@code WITH cdc = {...} AND tablets = {...}}: lowercased names, in the order written. */
public record WithProperties(Map<String, Term> properties) implements AlterAction {
    public WithProperties {
        properties = Properties.copy(properties);
    }
}
