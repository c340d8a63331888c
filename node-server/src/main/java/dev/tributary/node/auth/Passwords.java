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
    private static final SecureRandom RANDOM = new SecureRandom();

    private Passwords() {
    }

    public static String hash(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return OpenBSDBCrypt.generate("2a", password.toCharArray(), salt, COST);
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
