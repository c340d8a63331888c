package dev.tributary.node.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * A role store in memory whose cached view can lag the store, as another node's change reaches
 * this one a moment later: {@link #role} answers from {@link #seen} until {@link #catchUp}.
 */
final class MemoryRoles implements RoleStore {
    private final Map<String, Role> stored = new TreeMap<>();
    final Map<String, Role> seen = new TreeMap<>();

    /** A change made elsewhere: in the store, not yet seen here. */
    void changeElsewhere(Role r) {
        stored.put(r.name(), r);
    }

    void catchUp() {
        seen.clear();
        seen.putAll(stored);
    }

    @Override
    public synchronized Optional<Role> role(String name) {
        return Optional.ofNullable(seen.get(name));
    }

    @Override
    public synchronized Optional<Role> fresh(String name) {
        return Optional.ofNullable(stored.get(name));
    }

    @Override
    public synchronized List<Role> roles() {
        return new ArrayList<>(stored.values());
    }

    @Override
    public synchronized boolean create(Role role) {
        if (stored.containsKey(role.name())) {
            return false;
        }
        stored.put(role.name(), role);
        seen.put(role.name(), role);
        return true;
    }

    @Override
    public synchronized Optional<Role> update(String name, UnaryOperator<Role> change) {
        Role r = stored.get(name);
        if (r == null) {
            return Optional.empty();
        }
        Role next = change.apply(r);
        stored.put(name, next);
        seen.put(name, next);
        return Optional.of(next);
    }

    @Override
    public synchronized boolean delete(String name) {
        seen.remove(name);
        return stored.remove(name) != null;
    }
}
