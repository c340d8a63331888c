package dev.tributary.node.exec;

import dev.tributary.cql.ast.Call;

/**
 * One package of administration procedures ({@code dbms_apply_adm}, ...) that the executor runs a
 * CALL through; a layer above the executor (apply) provides its own without the executor knowing it.
 */
public interface Procedures {
    /** Runs the procedure, or returns null when it is not one of this package's. */
    StatementResult call(String proc, Call c, SessionContext s);
}
