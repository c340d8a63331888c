package dev.tributary.deploy;

import java.nio.file.Path;
import java.util.List;

/**
 * The TLS options of the commands that connect to a node ({@code cql}, {@code tail},
 * {@code admin}): {@code --tls-ca FILE} (the CA certificates to trust, PEM) and
 * {@code --tls-client-cert FILE --tls-client-key FILE} (for a node started with
 * {@code --tls-client-ca}).
 */
record ClientTls(Path ca, Path cert, Path key) {
    static final ClientTls NONE = new ClientTls(null, null, null);

    boolean none() {
        return ca == null && cert == null;
    }

    /** The TLS options taken out of a command's arguments, and the arguments left. */
    record Extracted(ClientTls tls, List<String> rest) {
    }

    static Extracted extract(List<String> args) throws UsageException {
        TakenOptions taken = TakenOptions.take(args, java.util.Set.of("--tls-ca", "--tls-client-cert", "--tls-client-key"),
                "a file");
        Path ca = readable(taken, "--tls-ca");
        Path cert = readable(taken, "--tls-client-cert");
        Path key = readable(taken, "--tls-client-key");
        if ((cert == null) != (key == null)) {
            throw new UsageException("--tls-client-cert and --tls-client-key go together");
        }
        return new Extracted(new ClientTls(ca, cert, key), taken.rest());
    }

    private static Path readable(TakenOptions taken, String name) throws UsageException {
        String v = taken.values().get(name);
        if (v == null) {
            return null;
        }
        Path p = Path.of(v);
        if (!p.toFile().canRead()) {
            throw new UsageException(name + ": cannot read " + v);
        }
        return p;
    }
}
