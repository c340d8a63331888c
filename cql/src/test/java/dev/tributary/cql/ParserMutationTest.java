package dev.tributary.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tributary.cql.ast.ParsedStatement;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import dev.tributary.cql.errors.CqlTypeException;
import dev.tributary.cql.internal.AstTerms;
import dev.tributary.dictionary.types.CqlType;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Mutates valid statements ({@link StatementMutator}: tokens deleted, duplicated, swapped, replaced;
 * characters deleted or inserted) and checks that the parser only ever answers with a statement, a
 * {@link CqlSyntaxException} or a {@link CqlInvalidException}, and that the terms of what parses
 * can be typed against any column type with nothing but CQL errors. Replay a failure with
 * {@code -Dcql.fuzz.seed=N}.
 */
class ParserMutationTest {
    private static final int TOKEN_CASES = 4_000;
    private static final int CHAR_CASES = 2_000;

    private static final CqlType.UserType ADDRESS = new CqlType.UserType("ks", "address", List.of(
            new CqlType.Field("street", CqlType.parse("text")), new CqlType.Field("zip", CqlType.parse("int"))), false);
    private static final List<CqlType> TYPES = List.of(CqlType.parse("int"), CqlType.parse("tinyint"),
            CqlType.parse("text"), CqlType.parse("ascii"), CqlType.parse("float"), CqlType.parse("decimal"),
            CqlType.parse("timestamp"), CqlType.parse("date"), CqlType.parse("time"), CqlType.parse("timeuuid"),
            CqlType.parse("inet"), CqlType.parse("blob"), CqlType.parse("duration"), CqlType.parse("list<int>"),
            CqlType.parse("set<text>"), CqlType.parse("map<text, double>"),
            CqlType.parse("frozen<list<map<int, text>>>"), ADDRESS);

    private final TermTyper typer = new TermTyper(
            new TimeUuidGenerator(InstantSource.fixed(Instant.EPOCH), 1, 1), new SplittableRandom(3));
    private int parsed;
    private int refused;

    @Test
    void mutatedStatementsOnlyFailWithCqlErrors() {
        long seed = Long.getLong("cql.fuzz.seed", System.nanoTime());
        System.out.println("ParserMutationTest seed=" + seed + " (replay with -Dcql.fuzz.seed=" + seed + ")");
        Random random = new Random(seed);
        for (int c = 0; c < TOKEN_CASES; c++) {
            String base = StatementMutator.CORPUS.get(random.nextInt(StatementMutator.CORPUS.size()));
            check(seed, c, StatementMutator.tokenMutation(base, random));
        }
        for (int c = 0; c < CHAR_CASES; c++) {
            String base = StatementMutator.CORPUS.get(random.nextInt(StatementMutator.CORPUS.size()));
            check(seed, TOKEN_CASES + c, StatementMutator.charMutation(base, random));
        }
        // the mutations must exercise both outcomes, or this test proves nothing
        assertTrue(parsed > 100, "only " + parsed + " mutants parsed (seed " + seed + ")");
        assertTrue(refused > 1000, "only " + refused + " mutants were refused (seed " + seed + ")");
    }

    @Test
    void theUnmutatedCorpusParsesAndRoundTripsThroughScriptText() {
        for (String text : StatementMutator.CORPUS) {
            Statement st = CqlParser.parse(text);
            List<ParsedStatement> script = CqlParser.parseScript(text + "\n;\n" + text);
            assertEquals(2, script.size(), text);
            assertEquals(st, script.get(1).statement(), text);
            assertEquals(st, CqlParser.parse(script.get(0).text()), text);
        }
    }

    private void check(long seed, int caseNo, String text) {
        Statement st;
        try {
            st = CqlParser.parse(text);
            parsed++;
        } catch (CqlSyntaxException | CqlInvalidException e) {
            refused++;
            if (e instanceof CqlSyntaxException s) {
                assertTrue(s.line() >= 1 && s.column() >= 1, "bad position in " + s.getMessage());
            }
            return;
        } catch (RuntimeException | StackOverflowError e) {
            throw failure(seed, caseNo, text, "parse", e);
        }
        try {
            CqlParser.countBindMarkers(st);
            List<ParsedStatement> script = CqlParser.parseScript(text);
            assertEquals(1, script.size());
            assertEquals(st, CqlParser.parse(script.get(0).text()), "re-parse of the statement text");
            List<Term> terms = new ArrayList<>();
            AstTerms.forEach(st, terms::add);
            for (Term t : terms) {
                for (CqlType type : TYPES) {
                    typeOnly(t, type);
                }
            }
        } catch (RuntimeException | StackOverflowError e) {
            throw failure(seed, caseNo, text, "after parsing", e);
        }
    }

    private void typeOnly(Term t, CqlType type) {
        try {
            typer.toValue(type, t, "v", Arrays.asList(1, "x", null, List.of(1)));
        } catch (CqlTypeException | CqlInvalidException expected) {
            // a value that does not fit is an answer, not a failure
        }
    }

    private static AssertionError failure(long seed, int caseNo, String text, String phase, Throwable e) {
        AssertionError err = new AssertionError("seed " + seed + " case " + caseNo + " (" + phase + "): "
                + e.getClass().getName() + " for input <<" + text + ">>", e);
        fail(err);
        return err;
    }
}
