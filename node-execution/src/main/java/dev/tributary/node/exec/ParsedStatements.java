package dev.tributary.node.exec;

import dev.tributary.cql.ast.Statement;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parsed statements a node keeps by their text, least recently used dropped first, bounded by
 * the entries and by their texts' total length. A count alone let batches of 500 literal INSERTs
 * hold some 200 MB of syntax trees (SlowConsumerIT at 5,000 rows/s: 214,000 Insert nodes of 428
 * batches live after a full collection, and up to 1,024 batches kept); a tree is about twenty
 * times its text, so the length bound holds the cache near {@code 20 * maxChars} bytes. A text
 * longer than a quarter of it is not kept: a statement that large is seldom sent twice, and
 * keeping it would push out many that are.
 */
final class ParsedStatements {
    private final int maxEntries;
    private final long maxChars;
    private final LinkedHashMap<String, Statement> byText = new LinkedHashMap<>(16, 0.75f, true);
    private long chars;

    ParsedStatements(int maxEntries, long maxChars) {
        if (maxEntries <= 0 || maxChars <= 0) {
            throw new IllegalArgumentException("parsed statement cache bounds must be positive: " + maxEntries + " entries, "
                    + maxChars + " characters");
        }
        this.maxEntries = maxEntries;
        this.maxChars = maxChars;
    }

    /** The statement parsed from {@code text}, or null when it is not kept. */
    synchronized Statement get(String text) {
        return byText.get(text);
    }

    /** Keeps {@code statement} under {@code text} unless the text is too long, dropping the least recently used past a bound. */
    synchronized void put(String text, Statement statement) {
        if (text.length() > maxChars / 4) {
            return;
        }
        Statement before = byText.put(text, statement);
        if (before == null) {
            chars += text.length();
        }
        Iterator<Map.Entry<String, Statement>> eldest = byText.entrySet().iterator();
        while ((byText.size() > maxEntries || chars > maxChars) && eldest.hasNext()) {
            chars -= eldest.next().getKey().length();
            eldest.remove();
        }
    }

    synchronized int size() {
        return byText.size();
    }

    /** The total length of the texts kept. */
    synchronized long chars() {
        return chars;
    }
}
