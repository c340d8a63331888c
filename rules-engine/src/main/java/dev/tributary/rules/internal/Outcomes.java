package dev.tributary.rules.internal;

import dev.tributary.rules.eval.Truth;

/**
 * Condition evaluation works on <em>sets of possible SQL outcomes</em>, encoded as a 3-bit mask
 * over {TRUE, FALSE, NULL}. With full information each predicate has exactly one outcome; with
 * partial information (prefiltering, or a column absent from the LCR) a predicate that reads an
 * unknown value has all three. Combining sets pointwise with SQL's three-valued AND/OR/NOT is
 * sound: the set always contains the outcome that full information would give. Keeping SQL NULL
 * apart from "unknown" matters: {@code NOT (col = 5)} is NULL, not TRUE, when col is NULL.
 *
 * <p>A rule's {@link Truth}: TRUE when TRUE is the only possible outcome, FALSE when TRUE is not
 * possible (FALSE or NULL: a WHERE clause rejects both), MAYBE otherwise.
 */
public final class Outcomes {
    public static final int T = 1;
    public static final int F = 2;
    public static final int N = 4;
    public static final int ANY = T | F | N;

    private static final int[] AND = new int[64];
    private static final int[] OR = new int[64];
    private static final int[] NOT = new int[8];

    static {
        int[] bits = {T, F, N};
        for (int a = 1; a < 8; a++) {
            for (int b = 1; b < 8; b++) {
                int and = 0;
                int or = 0;
                for (int x : bits) {
                    if ((a & x) == 0) {
                        continue;
                    }
                    for (int y : bits) {
                        if ((b & y) == 0) {
                            continue;
                        }
                        and |= and3(x, y);
                        or |= or3(x, y);
                    }
                }
                AND[a * 8 + b] = and;
                OR[a * 8 + b] = or;
            }
            int not = 0;
            if ((a & T) != 0) {
                not |= F;
            }
            if ((a & F) != 0) {
                not |= T;
            }
            if ((a & N) != 0) {
                not |= N;
            }
            NOT[a] = not;
        }
    }

    private Outcomes() {
    }

    private static int and3(int x, int y) {
        if (x == F || y == F) {
            return F;
        }
        if (x == N || y == N) {
            return N;
        }
        return T;
    }

    private static int or3(int x, int y) {
        if (x == T || y == T) {
            return T;
        }
        if (x == N || y == N) {
            return N;
        }
        return F;
    }

    public static int and(int a, int b) {
        return AND[a * 8 + b];
    }

    public static int or(int a, int b) {
        return OR[a * 8 + b];
    }

    public static int not(int a) {
        return NOT[a];
    }

    public static int of(boolean b) {
        return b ? T : F;
    }

    public static Truth toTruth(int mask) {
        if (mask == T) {
            return Truth.TRUE;
        }
        if ((mask & T) == 0) {
            return Truth.FALSE;
        }
        return Truth.MAYBE;
    }
}
