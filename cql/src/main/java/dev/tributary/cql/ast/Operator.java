package dev.tributary.cql.ast;

/** A relation operator, with its CQL spelling. */
public enum Operator {
    EQ("="), NEQ("!="), LT("<"), LTE("<="), GT(">"), GTE(">="), IN("IN"), CONTAINS("CONTAINS"),
    CONTAINS_KEY("CONTAINS KEY");

    private final String symbol;

    Operator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }
}
