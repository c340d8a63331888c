/**
 * Where a change goes in the CDC log: Murmur3 tokens of partition keys, vnode tokens and the token
 * ring, CDC stream IDs, stream generations of vnode keyspaces and their history, and the per-table
 * stream sets of tablets keyspaces, with ScyllaDB's semantics and encodings.
 *
 * <p>Pure logic: no I/O, no clocks, no threads. Time is passed in as milliseconds since the epoch
 * and randomness as a {@link java.util.random.RandomGenerator}, so a seeded simulation replays
 * exactly. Every value type is immutable and safe to share between threads; a
 * {@code RandomGenerator} passed in is used only during the call and must not be shared with
 * another thread meanwhile. Errors are {@link dev.tributary.generations.errors typed exceptions}
 * or, for violated preconditions, {@link java.lang.IllegalArgumentException}s that name the
 * offending value.
 */
package dev.tributary.generations;
