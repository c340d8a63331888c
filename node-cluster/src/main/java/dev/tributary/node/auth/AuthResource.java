package dev.tributary.node.auth;

import java.util.Objects;
import java.util.Optional;

/**
 * What a permission is on, resolved: every keyspace, one keyspace, or one table. A permission on
 * a keyspace covers its tables, one on every keyspace covers them all, as in Cassandra. The
 * {@link #name()} is Cassandra's resource name ({@code data}, {@code data/ks}, {@code data/ks/t}),
 * kept in {@code system_auth.role_permissions}.
 */
public record AuthResource(String keyspace, String table) {
    public static final AuthResource ALL_KEYSPACES = new AuthResource(null, null);

    public AuthResource {
        if (table != null) {
            Objects.requireNonNull(keyspace, "a table's keyspace");
        }
    }

    public static AuthResource keyspace(String ks) {
        return new AuthResource(Objects.requireNonNull(ks, "keyspace"), null);
    }

    public static AuthResource table(String ks, String t) {
        return new AuthResource(ks, Objects.requireNonNull(t, "table"));
    }

    /** The resource that contains this one (a table's keyspace, a keyspace's "all keyspaces"), if any. */
    public Optional<AuthResource> parent() {
        if (table != null) {
            return Optional.of(keyspace(keyspace));
        }
        return keyspace != null ? Optional.of(ALL_KEYSPACES) : Optional.empty();
    }

    /** This resource and every one that contains it, nearest first: a grant on any of them applies here. */
    public java.util.List<AuthResource> lineage() {
        java.util.List<AuthResource> out = new java.util.ArrayList<>();
        for (Optional<AuthResource> at = Optional.of(this); at.isPresent(); at = at.get().parent()) {
            out.add(at.get());
        }
        return out;
    }

    public String name() {
        return table != null ? "data/" + keyspace + "/" + table : keyspace != null ? "data/" + keyspace : "data";
    }

    /** Parses {@link #name()}. */
    public static AuthResource parse(String name) {
        String[] parts = name.split("/", -1);
        if (!parts[0].equals("data") || parts.length > 3) {
            throw new IllegalArgumentException("not a data resource: " + name);
        }
        return parts.length == 1 ? ALL_KEYSPACES : parts.length == 2 ? keyspace(parts[1]) : table(parts[1], parts[2]);
    }

    /** As errors and LIST PERMISSIONS show it: {@code <all keyspaces>}, {@code <keyspace ks>}, {@code <table ks.t>}. */
    @Override
    public String toString() {
        return table != null ? "<table " + keyspace + "." + table + ">" : keyspace != null ? "<keyspace " + keyspace + ">"
                : "<all keyspaces>";
    }
}
