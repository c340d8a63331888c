package dev.tributary.deploy;

import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.impl.DefaultParser;

/**
 * How the shell's line editor reads statements: Enter on a statement without its {@code ;}
 * (or inside a string or comment) continues it on the next line, as in cqlsh; words for Tab
 * completion end at blanks and at CQL's punctuation, so {@code (k,v} completes {@code v} and a
 * {@code .} stays in the word for {@code ks.table}.
 */
final class StatementParser extends DefaultParser {
    StatementParser() {
        setEscapeChars(new char[0]); // CQL doubles quotes instead of escaping them
    }

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) {
        if (context == ParseContext.ACCEPT_LINE) {
            if (!CqlCommand.isExit(line) && StatementSplitter.split(line).hasUnfinished()) {
                throw new EOFError(-1, cursor, "a statement ends with ;");
            }
            // complete statements: the splitter, which knows CQL's quoting, has judged them
            return super.parse(line, cursor, ParseContext.SPLIT_LINE);
        }
        return super.parse(line, cursor, context);
    }

    @Override
    public boolean isDelimiterChar(CharSequence buffer, int pos) {
        char c = buffer.charAt(pos);
        return Character.isWhitespace(c) || ",;()=<>".indexOf(c) >= 0;
    }
}
