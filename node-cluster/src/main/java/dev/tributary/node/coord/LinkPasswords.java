package dev.tributary.node.coord;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Database link passwords as ZooKeeper keeps them: sealed with AES-256-GCM under a key derived from
 * the cluster's secret, bound to the link's name (a sealed password copied onto another link does
 * not open). A node must read them back to log in at the link's target, so they cannot be hashed
 * as role passwords are. What this guards against is a copy of the link's znode, a ZooKeeper
 * snapshot or log read in part, a {@code zkCli get}: the key is the peer secret, which
 * --zookeeper-auth-file keeps from anyone but the nodes. Thread-safe.
 */
final class LinkPasswords {
    /** Marks a sealed password; anything else in that place is a password an older node kept in clear. */
    static final String SEALED = "sealed1:";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    LinkPasswords(byte[] clusterSecret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(clusterSecret, "HmacSHA256"));
            // a key of its own: the bearer tokens' key is derived from the same secret under another label
            this.key = new SecretKeySpec(mac.doFinal("tributary database link passwords v1".getBytes(StandardCharsets.UTF_8)),
                    "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    static boolean sealed(String stored) {
        return stored.startsWith(SEALED);
    }

    String seal(String link, String password) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        byte[] sealed = crypt(Cipher.ENCRYPT_MODE, link, nonce, password.getBytes(StandardCharsets.UTF_8));
        return SEALED + Base64.getEncoder().encodeToString(ByteBuffer.allocate(nonce.length + sealed.length).put(nonce)
                .put(sealed).array());
    }

    /**
     * The password of a stored value: opened when sealed, as it is when an older node kept it in clear.
     *
     * @throws IllegalArgumentException when a sealed value does not open (another cluster's secret, another link, damage)
     */
    String open(String link, String stored) {
        if (!sealed(stored)) {
            return stored;
        }
        byte[] all;
        try {
            all = Base64.getDecoder().decode(stored.substring(SEALED.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the password of database link " + link + " is damaged in ZooKeeper");
        }
        if (all.length <= NONCE_BYTES) {
            throw new IllegalArgumentException("the password of database link " + link + " is damaged in ZooKeeper");
        }
        byte[] nonce = java.util.Arrays.copyOf(all, NONCE_BYTES);
        byte[] sealed = java.util.Arrays.copyOfRange(all, NONCE_BYTES, all.length);
        return new String(crypt(Cipher.DECRYPT_MODE, link, nonce, sealed), StandardCharsets.UTF_8);
    }

    private byte[] crypt(int mode, String link, byte[] nonce, byte[] data) {
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(link.getBytes(StandardCharsets.UTF_8));
            return c.doFinal(data);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new IllegalArgumentException("the password of database link " + link + " does not open with this "
                    + "cluster's secret (damaged, or copied from another link or cluster); CREATE the link again");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is part of every Java runtime", e);
        }
    }
}
