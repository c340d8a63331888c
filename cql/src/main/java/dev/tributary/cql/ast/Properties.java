package dev.tributary.cql.ast;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Copies of property maps that keep the order written and cannot be changed. */
final class Properties {
    private Properties() {
    }

    static <V> Map<String, V> copy(Map<String, V> map) {
        Objects.requireNonNull(map, "properties");
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
