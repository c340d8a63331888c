package dev.tributary.cql.ast;

import dev.tributary.cql.lexer.Identifiers;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A user-type literal {@code {field: value, ...}}: the keys are identifiers (lowercased unless
 * double-quoted), kept in the order written; no field appears twice.
 */
public record UdtLit(Map<String, Term> fields) implements Term {
    public UdtLit {
        Objects.requireNonNull(fields, "fields");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    @Override
    public String cql() {
        return fields.entrySet().stream()
                .map(e -> Identifiers.quoteIfNeeded(e.getKey()) + ": " + e.getValue().cql())
                .collect(Collectors.joining(", ", "{", "}"));
    }
}
