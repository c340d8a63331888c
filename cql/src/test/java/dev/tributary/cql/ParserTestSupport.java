package dev.tributary.cql;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.tributary.cql.ast.IntegerLit;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.StringLit;
import dev.tributary.cql.ast.Term;

/** Shorthands shared by the parser tests. */
final class ParserTestSupport {
    private ParserTestSupport() {
    }

    static <T extends Statement> T parse(String text, Class<T> type) {
        return assertInstanceOf(type, CqlParser.parse(text), text);
    }

    static QualifiedName qn(String keyspace, String name) {
        return new QualifiedName(keyspace, name);
    }

    static Term i(long v) {
        return IntegerLit.of(v);
    }

    static Term s(String v) {
        return new StringLit(v);
    }
}
