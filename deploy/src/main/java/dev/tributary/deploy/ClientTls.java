package dev.tributary.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
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
        List<String> rest = new ArrayList<>();
        Path ca = null;
        Path cert = null;
        Path key = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (!name.equals("--tls-ca") && !name.equals("--tls-client-cert") && !name.equals("--tls-client-key")) {
                rest.add(a);
                continue;
            }
            String v;
            if (a.contains("=")) {
                v = a.substring(a.indexOf('=') + 1);
            } else if (i + 1 < args.size()) {
                v = args.get(++i);
            } else {
                throw new UsageException(name + " needs a file");
            }
            Path p = Path.of(v);
            if (!p.toFile().canRead()) {
                throw new UsageException(name + ": cannot read " + v);
            }
            switch (name) {
                case "--tls-ca" -> ca = p;
                case "--tls-client-cert" -> cert = p;
                default -> key = p;
            }
        }
        if ((cert == null) != (key == null)) {
            throw new UsageException("--tls-client-cert and --tls-client-key go together");
        }
        return new Extracted(new ClientTls(ca, cert, key), rest);
    }
}
