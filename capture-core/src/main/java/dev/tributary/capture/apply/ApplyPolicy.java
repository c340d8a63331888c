package dev.tributary.capture.apply;

import java.util.List;
import java.util.Map;

/**
 * What an apply consults for each transaction, read afresh so that administration takes effect
 * while it runs: the destination's instantiation SCNs and its update conflict handlers by table
 * ({@link ConflictHandler#objectName()}).
 */
public record ApplyPolicy(Instantiations instantiations, Map<String, List<ConflictHandler>> handlers) {
    public ApplyPolicy {
        handlers = Map.copyOf(handlers);
    }

    public List<ConflictHandler> handlersOf(String owner, String table) {
        return handlers.getOrDefault(owner + "." + table, List.of());
    }
}
