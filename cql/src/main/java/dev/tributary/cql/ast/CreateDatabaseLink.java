package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * {@code CREATE DATABASE LINK name USING 'target'}: the target is another Tributary cluster
 * ({@code HOST:PORT[,HOST:PORT...]}) or a JDBC URL ({@code jdbc:postgresql://...}).
 */
public record CreateDatabaseLink(String name, String using) implements Statement {
    public CreateDatabaseLink {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(using, "using");
    }
}
