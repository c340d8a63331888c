package dev.tributary.node.exec;

/**
 * A bind marker as an error names it ("bind marker 2 (v)"). Passed where a bound value is decoded,
 * so the text is built only when an error needs it, not for every value of every row.
 */
public record BindMarkerName(int number, String column) {
    @Override
    public String toString() {
        return "bind marker " + number + " (" + column + ")";
    }
}
