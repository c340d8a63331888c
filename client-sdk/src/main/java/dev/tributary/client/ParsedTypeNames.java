package dev.tributary.client;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Type names already parsed by {@link CqlTypeName#parse} (immutable values); bounded, so odd names cannot grow it. */
final class ParsedTypeNames {
    static final int MAX = 4096;
    static final Map<String, CqlTypeName> NAMES = new ConcurrentHashMap<>();

    private ParsedTypeNames() {
    }
}
