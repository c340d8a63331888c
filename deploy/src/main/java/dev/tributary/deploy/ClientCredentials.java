package dev.tributary.deploy;

import java.util.List;
import java.util.function.Function;

/**
 * The login options of the commands that connect to a node ({@code cql}, {@code tail},
 * {@code admin}): {@code --user ROLE} and {@code --password P}, the password defaulting to
 * {@code $TRIBUTARY_PASSWORD} so it need not show in the process list. No message, usage text
 * or {@link #toString()} ever holds the password.
 */
record ClientCredentials(String user, String password) {
    static final ClientCredentials NONE = new ClientCredentials(null, null);
    static final String PASSWORD_ENV = "TRIBUTARY_PASSWORD";

    boolean none() {
        return user == null;
    }

    @Override
    public String toString() {
        return none() ? "ClientCredentials[none]" : "ClientCredentials[user=" + user + "]";
    }

    /** The login options taken out of a command's arguments, and the arguments left. */
    record Extracted(ClientCredentials credentials, List<String> rest) {
    }

    /** @param env the environment ({@code System::getenv}; a map's {@code get} in tests) */
    static Extracted extract(List<String> args, Function<String, String> env) throws UsageException {
        TakenOptions taken = TakenOptions.take(args, java.util.Set.of("--user", "--password"), "a value");
        String user = taken.values().get("--user");
        String password = taken.values().get("--password");
        if (user != null && (user.isBlank() || user.startsWith("-"))) {
            // "--user --password P" would otherwise leave P among the arguments, to be echoed as unexpected
            throw new UsageException("--user needs a role name");
        }
        if (user == null && password != null) {
            throw new UsageException("--password needs --user ROLE");
        }
        if (user != null && password == null) {
            password = env.apply(PASSWORD_ENV);
            if (password == null) {
                throw new UsageException("--user " + user + " needs a password: give --password or set " + PASSWORD_ENV);
            }
        }
        return new Extracted(user == null ? NONE : new ClientCredentials(user, password), taken.rest());
    }
}
