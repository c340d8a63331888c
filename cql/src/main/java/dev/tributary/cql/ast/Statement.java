package dev.tributary.cql.ast;

/**
 * One parsed statement. The hierarchy is closed, so a {@code switch} over it (or an
 * {@code instanceof} chain) can be checked for completeness. Every implementation is an immutable
 * record; names are already normalized (lowercased unless they were double-quoted), and optional
 * parts are {@code null} only where a record's javadoc says so.
 */
public sealed interface Statement permits ModificationStatement, CreateKeyspace, DropKeyspace, Use, CreateType,
        DropType, CreateTable, AlterTable, DropTable, Truncate, Batch, Select, Call, CreateDatabaseLink, DropDatabaseLink,
        AlterSystem, RoleStatement {
}
