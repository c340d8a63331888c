package dev.tributary.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits statement text at {@code ;} the way the server reads it: a semicolon inside a
 * 'string' (with '' escapes), a "quoted name", a $$string$$, a comment ({@code --}, {@code //},
 * {@code /* *}{@code /}) or a {@code BEGIN [UNLOGGED|COUNTER] BATCH ... APPLY BATCH} block does
 * not end a statement. Comments are blanked out (replaced by spaces, newlines kept) so the
 * server sees only statements; statements are trimmed and empty ones dropped. Stateless and
 * thread-safe.
 */
public final class StatementSplitter {

    /** Complete statements, and the raw text after the last one (an unfinished statement). */
    public record Split(List<String> statements, String remainder) {
        public Split {
            statements = List.copyOf(statements);
        }

        /** Whether the remainder holds anything but whitespace and comments. */
        public boolean hasUnfinished() {
            return !isBlank(remainder);
        }
    }

    private enum State { NORMAL, SINGLE_QUOTE, DOUBLE_QUOTE, DOLLAR, LINE_COMMENT, BLOCK_COMMENT }

    private StatementSplitter() {
    }

    /** The statements ended by {@code ;} and what follows the last one. */
    public static Split split(String text) {
        List<String> out = new ArrayList<>();
        Scan scan = scan(text, out, true);
        return new Split(out, text.substring(scan.lastEnd()));
    }

    /** All statements, including a last one without {@code ;} (as in {@code -e 'SELECT ...'}). */
    public static List<String> splitAll(String text) {
        List<String> out = new ArrayList<>();
        Scan scan = scan(text, out, true);
        String rest = scan.current().trim();
        if (!rest.isEmpty()) {
            out.add(rest);
        }
        return out;
    }

    /**
     * Whether text holds only whitespace and complete comments; an open string or block comment
     * is not blank, since the text that closes it is still to come.
     */
    public static boolean isBlank(String text) {
        Scan scan = scan(text, new ArrayList<>(), false);
        return scan.current().isBlank() && (scan.endState() == State.NORMAL || scan.endState() == State.LINE_COMMENT);
    }

    /** Where a scan stopped: past the last statement, in which state, with the text after it. */
    private record Scan(int lastEnd, State endState, String current) {
    }

    /**
     * Scans text, adding each complete statement to {@code out} when {@code split} is set.
     * Statement text is collected with comments blanked.
     */
    private static Scan scan(String text, List<String> out, boolean split) {
        StringBuilder current = new StringBuilder();
        State state = State.NORMAL;
        int lastEnd = 0;
        int words = 0;
        String previousWord = "";
        boolean inBatch = false;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            char next = i + 1 < n ? text.charAt(i + 1) : '\0';
            switch (state) {
                case NORMAL:
                    if (c == '\'') {
                        state = State.SINGLE_QUOTE;
                        current.append(c);
                    } else if (c == '"') {
                        state = State.DOUBLE_QUOTE;
                        current.append(c);
                    } else if (c == '$' && next == '$') {
                        state = State.DOLLAR;
                        current.append("$$");
                        i++;
                    } else if ((c == '-' && next == '-') || (c == '/' && next == '/')) {
                        state = State.LINE_COMMENT;
                        current.append("  ");
                        i++;
                    } else if (c == '/' && next == '*') {
                        state = State.BLOCK_COMMENT;
                        current.append("  ");
                        i++;
                    } else if (isWordChar(c)) {
                        int start = i;
                        while (i + 1 < n && isWordChar(text.charAt(i + 1))) {
                            i++;
                        }
                        String word = text.substring(start, i + 1);
                        current.append(word);
                        String upper = word.toUpperCase(Locale.ROOT);
                        if (words == 0 && upper.equals("BEGIN")) {
                            inBatch = true;
                        } else if (inBatch && upper.equals("BATCH") && previousWord.equals("APPLY")) {
                            inBatch = false;
                        }
                        words++;
                        previousWord = upper;
                    } else if (c == ';' && split && !inBatch) {
                        String statement = current.toString().trim();
                        if (!statement.isEmpty()) {
                            out.add(statement);
                        }
                        current.setLength(0);
                        lastEnd = i + 1;
                        words = 0;
                        previousWord = "";
                    } else {
                        current.append(c);
                    }
                    break;
                case SINGLE_QUOTE:
                case DOUBLE_QUOTE: {
                    char quote = state == State.SINGLE_QUOTE ? '\'' : '"';
                    current.append(c);
                    if (c == quote) {
                        if (next == quote) {
                            current.append(next);
                            i++;
                        } else {
                            state = State.NORMAL;
                        }
                    }
                    break;
                }
                case DOLLAR:
                    current.append(c);
                    if (c == '$' && next == '$') {
                        current.append(next);
                        i++;
                        state = State.NORMAL;
                    }
                    break;
                case LINE_COMMENT:
                    if (c == '\n') {
                        current.append('\n');
                        state = State.NORMAL;
                    } else {
                        current.append(' ');
                    }
                    break;
                case BLOCK_COMMENT:
                    if (c == '*' && next == '/') {
                        current.append("  ");
                        i++;
                        state = State.NORMAL;
                    } else {
                        current.append(c == '\n' ? '\n' : ' ');
                    }
                    break;
                default:
                    throw new IllegalStateException("unhandled state " + state);
            }
        }
        return new Scan(lastEnd, state, current.toString());
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
