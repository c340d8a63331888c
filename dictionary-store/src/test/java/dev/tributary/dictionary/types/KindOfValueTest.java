package dev.tributary.dictionary.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.dictionary.types.CqlType.Kind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class KindOfValueTest {
    @Test
    void everyClassOfTheValueModelHasOneKind() throws Exception {
        assertEquals(Optional.of(Kind.TEXT), Kind.of("a"));
        assertEquals(Optional.of(Kind.TINYINT), Kind.of((byte) 1));
        assertEquals(Optional.of(Kind.SMALLINT), Kind.of((short) 1));
        assertEquals(Optional.of(Kind.INT), Kind.of(1));
        assertEquals(Optional.of(Kind.BIGINT), Kind.of(1L));
        assertEquals(Optional.of(Kind.VARINT), Kind.of(BigInteger.ONE));
        assertEquals(Optional.of(Kind.DECIMAL), Kind.of(BigDecimal.ONE));
        assertEquals(Optional.of(Kind.FLOAT), Kind.of(1f));
        assertEquals(Optional.of(Kind.DOUBLE), Kind.of(1d));
        assertEquals(Optional.of(Kind.BOOLEAN), Kind.of(true));
        assertEquals(Optional.of(Kind.TIMESTAMP), Kind.of(Instant.EPOCH));
        assertEquals(Optional.of(Kind.DATE), Kind.of(LocalDate.EPOCH));
        assertEquals(Optional.of(Kind.TIME), Kind.of(LocalTime.MIDNIGHT));
        assertEquals(Optional.of(Kind.DURATION), Kind.of(new CqlDuration(1, 2, 3)));
        assertEquals(Optional.of(Kind.BLOB), Kind.of(Blob.of(new byte[] {1})));
        assertEquals(Optional.of(Kind.UUID), Kind.of(new UUID(1, 2)));
        assertEquals(Optional.of(Kind.INET), Kind.of(InetAddress.getByName("::1")));
    }

    @Test
    void nullAndNonScalarsHaveNone() {
        assertEquals(Optional.empty(), Kind.of(null));
        assertEquals(Optional.empty(), Kind.of(List.of(1)));
        assertEquals(Optional.empty(), Kind.of(Map.of()));
        assertEquals(Optional.empty(), Kind.of(new Object()));
    }
}
