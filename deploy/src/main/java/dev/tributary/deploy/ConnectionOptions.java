package dev.tributary.deploy;

import java.nio.file.Path;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The options every command that connects to a node ({@code cql}, {@code tail}, {@code admin})
 * shares, declared once and mixed into each: TLS ({@code --tls-ca FILE}, the CA certificates to
 * trust; {@code --tls-client-cert FILE --tls-client-key FILE} for a node started with
 * {@code --tls-client-ca}) and login ({@code --user ROLE}, {@code --password P}, the password
 * defaulting to {@code $TRIBUTARY_PASSWORD} so it need not show in the process list). No message
 * or help ever holds the password.
 */
final class ConnectionOptions {
    @Option(names = "--tls-ca", order = 10, paramLabel = "FILE", description = "connect with TLS, trusting the CA certificates in FILE (PEM)")
    String tlsCa;

    @Option(names = "--tls-client-cert", order = 11, paramLabel = "FILE",
            description = "the certificate to present to a node that requires one (started with --tls-client-ca)")
    String tlsClientCert;

    @Option(names = "--tls-client-key", order = 12, paramLabel = "FILE", description = "the PKCS#8 key of --tls-client-cert")
    String tlsClientKey;

    @Option(names = "--user", order = 13, paramLabel = "ROLE", description = "log in as ROLE (a node started with --authenticator "
            + "password); the session runs as ROLE (default anonymous, not logged in)")
    String user;

    @Option(names = "--password", order = 14, paramLabel = "P",
            description = "ROLE's password; without it $" + ClientCredentials.PASSWORD_ENV + ", which keeps it out of the process list")
    String password;

    /** The TLS asked for; {@link ClientTls#NONE} for none. @throws UsageException for a file that cannot be read or half a key pair */
    ClientTls tls() throws UsageException {
        Path ca = readable("--tls-ca", tlsCa);
        Path cert = readable("--tls-client-cert", tlsClientCert);
        Path key = readable("--tls-client-key", tlsClientKey);
        if ((cert == null) != (key == null)) {
            throw new UsageException("--tls-client-cert and --tls-client-key go together");
        }
        return new ClientTls(ca, cert, key);
    }

    /**
     * The login asked for; {@link ClientCredentials#NONE} for none.
     *
     * @param env the environment ({@code System::getenv}; a map's {@code get} in tests)
     * @throws UsageException for a password without a user, or a user without any password
     */
    ClientCredentials credentials(Function<String, String> env) throws UsageException {
        if (user != null && user.isBlank()) {
            throw new UsageException("--user needs a role name");
        }
        if (user == null && password != null) {
            throw new UsageException("--password needs --user ROLE");
        }
        if (user == null) {
            return ClientCredentials.NONE;
        }
        String p = password != null ? password : env.apply(ClientCredentials.PASSWORD_ENV);
        if (p == null) {
            throw new UsageException("--user " + user + " needs a password: give --password or set "
                    + ClientCredentials.PASSWORD_ENV);
        }
        return new ClientCredentials(user, p);
    }

    /**
     * How to connect: the injected factory when neither TLS nor a login is asked for (tests
     * serve commands in-process so), else gRPC channels of the CLI's own with them.
     */
    ClientFactory factory(ClientFactory plain, Function<String, String> env) throws UsageException {
        ClientTls tls = tls();
        ClientCredentials login = credentials(env);
        return tls.none() && login.none() ? plain : ClientFactory.netty(tls, login);
    }

    private static Path readable(String option, String value) throws UsageException {
        if (value == null) {
            return null;
        }
        Path p = Path.of(value);
        if (!p.toFile().canRead()) {
            throw new UsageException(option + ": cannot read " + value);
        }
        return p;
    }
}
