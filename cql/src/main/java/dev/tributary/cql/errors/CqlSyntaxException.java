package dev.tributary.cql.errors;

import java.util.Objects;

/**
 * The text is not a statement of the language. Carries the 1-based {@link #line()} and
 * {@link #column()} of the offending token, the token as written ({@link #found()}, or
 * {@code <EOF>} at the end of the input) and what would have been accepted there
 * ({@link #expected()}). The message reads {@code line 1:24 unexpected 'FORM', expected FROM}.
 */
public final class CqlSyntaxException extends CqlException {
    private static final long serialVersionUID = 1L;
    /** The {@link #found()} value at the end of the input. */
    public static final String EOF = "<EOF>";
    private static final int MAX_SHOWN = 40;

    private final int line;
    private final int column;
    private final String found;
    private final String expected;

    /**
     * @param detail an optional remark appended in parentheses, e.g. why a construct is refused;
     *               may be null
     */
    public CqlSyntaxException(int line, int column, String found, String expected, String detail) {
        super(format(line, column, found, expected, detail));
        this.line = line;
        this.column = column;
        this.found = Objects.requireNonNull(found, "found");
        this.expected = Objects.requireNonNull(expected, "expected");
    }

    public CqlSyntaxException(int line, int column, String found, String expected) {
        this(line, column, found, expected, null);
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    /** The offending token as written, or {@link #EOF}. */
    public String found() {
        return found;
    }

    /** What the parser would have accepted at that position, e.g. {@code FROM} or {@code ',' or ')'}. */
    public String expected() {
        return expected;
    }

    private static String format(int line, int column, String found, String expected, String detail) {
        String shown;
        if (EOF.equals(found)) {
            shown = EOF;
        } else {
            String cut = found.length() > MAX_SHOWN ? found.substring(0, MAX_SHOWN) + "..." : found;
            shown = "'" + cut.replace("\n", "\\n") + "'";
        }
        String msg = "line " + line + ":" + column + " unexpected " + shown + ", expected " + expected;
        return detail == null ? msg : msg + " (" + detail + ")";
    }
}
