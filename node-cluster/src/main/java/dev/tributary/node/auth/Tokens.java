package dev.tributary.node.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The bearer tokens of the gRPC API: {@code t1.<payload>.<signature>}, both base64url. The payload
 * is the role, the token's expiry (epoch ms) and a digest of the role's password hash at login;
 * the signature an HMAC-SHA256 of it under a key every node of the cluster derives from the
 * cluster's secret, so any node accepts a token any node issued. A token stops verifying when it
 * expires, and (checked by the caller against the role as it is now) when the role's password
 * changes. Thread-safe.
 */
public final class Tokens {
    private static final String PREFIX = "t1.";
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    /** What a token that verified says. */
    public record Claims(String role, long expiresAtMillis, long passwordDigest) {
    }

    /** Why a token did not verify; the message names the reason and never the token. */
    public static final class InvalidTokenException extends Exception {
        InvalidTokenException(String reason) {
            super(reason, null, false, false);
        }
    }

    private final byte[] key;
    private final LongSupplier clock;

    /** @param clusterSecret the cluster's shared secret; the signing key is derived from it */
    public Tokens(byte[] clusterSecret, LongSupplier clock) {
        this.key = hmac(clusterSecret, "tributary bearer tokens v1".getBytes(StandardCharsets.UTF_8));
        this.clock = clock;
    }

    public String issue(String role, long expiresAtMillis, long passwordDigest) {
        byte[] name = role.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(16 + name.length);
        b.putLong(expiresAtMillis).putLong(passwordDigest).put(name);
        String payload = B64.encodeToString(b.array());
        return PREFIX + payload + "." + B64.encodeToString(hmac(key, payload.getBytes(StandardCharsets.US_ASCII)));
    }

    public Claims verify(String token) throws InvalidTokenException {
        if (!token.startsWith(PREFIX)) {
            throw new InvalidTokenException("malformed token");
        }
        String rest = token.substring(PREFIX.length());
        int dot = rest.indexOf('.');
        if (dot < 0 || rest.indexOf('.', dot + 1) >= 0) {
            throw new InvalidTokenException("malformed token");
        }
        String payload = rest.substring(0, dot);
        byte[] signature;
        byte[] body;
        try {
            signature = Base64.getUrlDecoder().decode(rest.substring(dot + 1));
            body = Base64.getUrlDecoder().decode(payload);
        } catch (IllegalArgumentException e) {
            throw new InvalidTokenException("malformed token");
        }
        if (!MessageDigest.isEqual(signature, hmac(key, payload.getBytes(StandardCharsets.US_ASCII)))) {
            throw new InvalidTokenException("token signature does not verify");
        }
        if (body.length < 17) {
            throw new InvalidTokenException("malformed token");
        }
        ByteBuffer b = ByteBuffer.wrap(body);
        long expires = b.getLong();
        long digest = b.getLong();
        String role = new String(body, 16, body.length - 16, StandardCharsets.UTF_8);
        if (clock.getAsLong() >= expires) {
            throw new InvalidTokenException("token expired; log in again");
        }
        return new Claims(role, expires, digest);
    }

    /**
     * A digest of a role's password hash, carried in its tokens: ALTER ROLE ... WITH PASSWORD
     * changes it, which ends the tokens issued before.
     */
    public static long passwordDigest(String saltedHash) {
        byte[] h = sha256(saltedHash == null ? new byte[0] : saltedHash.getBytes(StandardCharsets.UTF_8));
        return ByteBuffer.wrap(h).getLong();
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
