package dev.tributary.node.apply;

import java.time.Instant;

/** A transaction in an apply's error queue (a row of DBA_APPLY_ERROR). */
public record ErrorTransaction(String applyName, String localTransactionId, String sourceDatabase,
        String sourceTransactionId, long sourceCommitScn, int messageCount, int errorNumber, String errorMessage,
        Instant errorCreationTime) {
}
