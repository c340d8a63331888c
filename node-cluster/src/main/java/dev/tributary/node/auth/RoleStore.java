package dev.tributary.node.auth;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where the cluster keeps its roles (ZooKeeper, in a node). Reads may lag a change made on another
 * node by a moment; {@link #fresh} reads through, for a decision that must not use a stale copy.
 */
public interface RoleStore {
    Optional<Role> role(String name);

    /** The role as the store has it now, not as this node last saw it. */
    Optional<Role> fresh(String name);

    List<Role> roles();

    /** @return false when a role of that name exists (nothing changed) */
    boolean create(Role role);

    /** Applies a change atomically (retrying when another node changed the role meanwhile); empty when there is no such role. */
    Optional<Role> update(String name, UnaryOperator<Role> change);

    /** @return false when there was no such role */
    boolean delete(String name);
}
