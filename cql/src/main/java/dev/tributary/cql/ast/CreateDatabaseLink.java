package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * {@code CREATE DATABASE LINK name [CONNECT TO user IDENTIFIED BY 'password'] USING 'target'}:
 * the target is another Tributary cluster ({@code HOST:PORT[,HOST:PORT...]}) or a JDBC URL
 * ({@code jdbc:postgresql://...}); the credentials (both null when not given) are the role the
 * link logs in as there. toString never shows the password.
 */
public record CreateDatabaseLink(String name, String using, String user, String password) implements Statement {
    public CreateDatabaseLink {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(using, "using");
        if ((user == null) != (password == null)) {
            throw new IllegalArgumentException("a link's user and password go together");
        }
    }

    public CreateDatabaseLink(String name, String using) {
        this(name, using, null, null);
    }

    @Override
    public String toString() {
        return "CreateDatabaseLink[name=" + name + ", using=" + using + ", user=" + user + ", password="
                + (password == null ? "unset" : "***") + "]";
    }
}
