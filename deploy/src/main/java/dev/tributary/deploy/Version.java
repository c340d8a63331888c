package dev.tributary.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The product version, from a resource Maven fills in at build time. */
final class Version {
    private static final String RESOURCE = "/dev/tributary/deploy/version.properties";

    private Version() {
    }

    static String current() {
        try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank() && !v.startsWith("${")) {
                    return v.trim();
                }
            }
        } catch (IOException e) {
            // fall through to the manifest
        }
        String manifest = Version.class.getPackage().getImplementationVersion();
        return manifest != null ? manifest : "unknown";
    }
}
