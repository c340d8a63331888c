package dev.tributary.node.exec;

import dev.tributary.cql.TermTyper;

/** The node's term typer: the system clock and randomness for now(), uuid() and friends. */
final class Terms {
    static final TermTyper TYPER = TermTyper.systemDefault();

    private Terms() {
    }
}
