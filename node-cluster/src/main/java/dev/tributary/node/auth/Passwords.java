package dev.tributary.node.auth;

import java.security.SecureRandom;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * Salted slow hashes of role passwords: bcrypt ({@code $2a$}, Bouncy Castle's OpenBSDBCrypt), the
 * scheme and cost Cassandra uses, so a hash from Cassandra's system_auth.roles checks here too.
 */
public final class Passwords {
    /** Cassandra's default cost: about 2^10 rounds, tens of milliseconds a check. */
    static final int COST = 10;
    /** bcrypt reads at most 72 bytes of a password; a longer one would be cut short silently. */
    public static final int MAX_BYTES = 72;
    private static final SecureRandom RANDOM = new SecureRandom();

    private Passwords() {
    }

    public static String hash(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return OpenBSDBCrypt.generate("2a", password.toCharArray(), salt, COST);
    }

    /** A password for a role nobody chose one for: 144 random bits, as 24 URL-safe base64 characters. */
    public static String generate() {
        byte[] b = new byte[18];
        RANDOM.nextBytes(b);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /**
     * The first line of a password file (--superuser-password-file), which must hold one that bcrypt
     * takes whole; errors name the file, never its content.
     */
    public static String readFirstLine(java.nio.file.Path file) {
        String text;
        try {
            text = java.nio.file.Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--superuser-password-file " + file + " cannot be read: " + e.getMessage(), e);
        }
        String line = text.lines().findFirst().orElse("");
        if (line.isEmpty()) {
            throw new IllegalArgumentException("--superuser-password-file " + file + ": its first line (the password) is empty");
        }
        if (line.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw new IllegalArgumentException("--superuser-password-file " + file + ": a password is at most " + MAX_BYTES
                    + " bytes (UTF-8; bcrypt reads no more)");
        }
        return line;
    }

    /** Whether the password matches the hash; a malformed hash matches nothing. */
    public static boolean matches(String password, String saltedHash) {
        if (saltedHash == null) {
            return false;
        }
        try {
            return OpenBSDBCrypt.checkPassword(saltedHash, password.toCharArray());
        } catch (IllegalArgumentException | org.bouncycastle.crypto.DataLengthException malformed) {
            return false;
        }
    }
}
