package dev.tributary.deploy;

import java.nio.file.Path;

/**
 * The TLS a command that connects to a node asked for ({@link ConnectionOptions} reads it): the
 * CA certificates to trust (PEM), and the client certificate and key to present.
 */
record ClientTls(Path ca, Path cert, Path key) {
    static final ClientTls NONE = new ClientTls(null, null, null);

    boolean none() {
        return ca == null && cert == null;
    }
}
