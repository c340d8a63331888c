package dev.tributary.node.coord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LinkPasswordsTest {
    private final byte[] secret = new byte[32];

    @Test
    @DisplayName("issue 29 item 8: a link password is kept sealed (never in clear, a new nonce each time) and opens under "
            + "the same cluster secret and link name only; a value an older node kept in clear reads as it is")
    void sealAndOpen() {
        Arrays.fill(secret, (byte) 7);
        LinkPasswords p = new LinkPasswords(secret);
        String a = p.seal("dw", "link-canary");
        String b = p.seal("dw", "link-canary");
        assertTrue(LinkPasswords.sealed(a) && !a.contains("link-canary"), a);
        assertNotEquals(a, b, "a fresh nonce each time");
        assertEquals("link-canary", p.open("dw", a));
        assertEquals("link-canary", new LinkPasswords(secret.clone()).open("dw", b), "any node of the cluster opens it");
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> p.open("other", a));
        assertFalse(other.getMessage().contains("link-canary"), other.getMessage());
        byte[] otherSecret = secret.clone();
        otherSecret[0] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> new LinkPasswords(otherSecret).open("dw", a));
        assertThrows(IllegalArgumentException.class, () -> p.open("dw", LinkPasswords.SEALED + "AAAA"));
        assertEquals("kept-in-clear", p.open("dw", "kept-in-clear"));
    }

    @Test
    @DisplayName("a link's znode data: the credentials' password sealed, read back whole; a link without credentials is its target")
    void linkData() {
        LinkPasswords p = new LinkPasswords(secret);
        TransportSettings.Link l = new TransportSettings.Link("dw", "127.0.0.1:9160", "cassandra", "pw-canary");
        String data = new String(l.encode(p), java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(data.contains("pw-canary"), data);
        assertFalse(TransportSettings.Link.clear(data));
        assertTrue(TransportSettings.Link.clear("127.0.0.1:9160\0cassandra\0pw-canary"));
        assertEquals(l, TransportSettings.Link.decode("dw", data, p));
        TransportSettings.Link open = new TransportSettings.Link("x", "jdbc:postgresql://h/db");
        assertEquals(open, TransportSettings.Link.decode("x", new String(open.encode(p), java.nio.charset.StandardCharsets.UTF_8), p));
    }
}
