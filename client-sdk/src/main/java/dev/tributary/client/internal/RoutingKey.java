package dev.tributary.client.internal;

/**
 * What a statement is routed by: its table ("ks.t", for tables whose tablets place their rows)
 * and its partition key as the nodes hash it.
 */
public record RoutingKey(String table, byte[] partitionKey) {
}
