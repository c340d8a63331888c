package dev.tributary.node.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TokensTest {
    private static final byte[] SECRET = "cluster-secret-0123456789abcdef!".getBytes();
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final Tokens tokens = new Tokens(SECRET, now::get);

    @Test
    @DisplayName("a token verifies on any node of the cluster until it expires, with its role and password digest")
    void roundTrip() throws Exception {
        String t = tokens.issue("alice", 2_000_000, 42);
        Tokens.Claims c = new Tokens(SECRET, now::get).verify(t);
        assertEquals(new Tokens.Claims("alice", 2_000_000, 42), c);
        now.set(1_999_999);
        tokens.verify(t);
        now.set(2_000_000);
        Tokens.InvalidTokenException e = assertThrows(Tokens.InvalidTokenException.class, () -> tokens.verify(t));
        assertEquals("token expired; log in again", e.getMessage());
    }

    @Test
    @DisplayName("X2: malformed, forged (another cluster's key) and altered tokens are refused, naming neither the token "
            + "nor an exception")
    void refusals() {
        String good = tokens.issue("alice", 2_000_000, 42);
        String otherCluster = new Tokens("another-cluster-secret-000000000".getBytes(), now::get).issue("alice", 2_000_000, 42);
        String payload = good.substring(3, good.lastIndexOf('.'));
        String forgedRole = "t1." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                java.nio.ByteBuffer.allocate(21).putLong(9_000_000).putLong(42).put("admin".getBytes()).array())
                + good.substring(good.lastIndexOf('.'));
        for (String bad : new String[] {"", "garbage", "t1.", "t1.a.b.c", "t1.!!!.???", otherCluster, forgedRole,
                "t1." + payload + ".AAAA", good + "x"}) {
            Tokens.InvalidTokenException e = assertThrows(Tokens.InvalidTokenException.class, () -> tokens.verify(bad), bad);
            if (!bad.isEmpty()) {
                assertFalse(e.getMessage().contains(bad), e.getMessage());
            }
        }
    }

    @Test
    @DisplayName("a new password hash gives a new digest, which ends the tokens issued before")
    void passwordDigest() {
        assertEquals(Tokens.passwordDigest("$2a$10$x"), Tokens.passwordDigest("$2a$10$x"));
        assertFalse(Tokens.passwordDigest("$2a$10$x") == Tokens.passwordDigest("$2a$10$y"));
    }
}
