package dev.tributary.deploy;

import dev.tributary.client.ColumnDefinition;
import dev.tributary.client.ResultSet;
import dev.tributary.client.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders a result as cqlsh does: a blank line, the header (names left-aligned), a dashes line
 * with {@code +} under each column separator, the rows (values right-aligned), a blank line and
 * {@code (N rows)}. Every line starts with one space, and columns are joined by {@code " | "}.
 * Stateless.
 */
final class TableFormatter {
    private TableFormatter() {
    }

    static String format(ResultSet rs) {
        List<ColumnDefinition> columns = rs.columns();
        int n = columns.size();
        List<String[]> cells = new ArrayList<>(rs.size());
        int[] widths = new int[n];
        for (int c = 0; c < n; c++) {
            widths[c] = width(columns.get(c).name());
        }
        for (Row row : rs) {
            String[] line = new String[n];
            for (int c = 0; c < n; c++) {
                line[c] = CqlshValues.format(row.getObject(c), columns.get(c).cqlType());
                widths[c] = Math.max(widths[c], width(line[c]));
            }
            cells.add(line);
        }
        StringBuilder sb = new StringBuilder("\n");
        if (n > 0) {
            StringBuilder header = new StringBuilder(" ");
            StringBuilder dashes = new StringBuilder("-");
            for (int c = 0; c < n; c++) {
                if (c > 0) {
                    header.append(" | ");
                    dashes.append("-+-");
                }
                header.append(padRight(columns.get(c).name(), widths[c]));
                dashes.append("-".repeat(widths[c]));
            }
            sb.append(stripTrailing(header)).append('\n').append(dashes).append("-\n");
            for (String[] line : cells) {
                sb.append(' ');
                for (int c = 0; c < n; c++) {
                    if (c > 0) {
                        sb.append(" | ");
                    }
                    sb.append(padLeft(line[c], widths[c]));
                }
                sb.append('\n');
            }
            sb.append('\n');
        }
        sb.append('(').append(rs.size()).append(" rows)\n");
        return sb.toString();
    }

    /** Display width in code points (cqlsh counts wide characters twice; this does not). */
    private static int width(String s) {
        return s.codePointCount(0, s.length());
    }

    private static String padRight(String s, int width) {
        return s + " ".repeat(Math.max(0, width - width(s)));
    }

    private static String padLeft(String s, int width) {
        return " ".repeat(Math.max(0, width - width(s))) + s;
    }

    private static String stripTrailing(StringBuilder sb) {
        int end = sb.length();
        while (end > 0 && sb.charAt(end - 1) == ' ') {
            end--;
        }
        return sb.substring(0, end);
    }
}
