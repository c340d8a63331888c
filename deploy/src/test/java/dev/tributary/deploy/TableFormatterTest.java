package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.client.ResultSet;
import dev.tributary.client.TributaryClient;
import dev.tributary.protocol.v1.ExecuteResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class TableFormatterTest {
    private FakeNode node;
    private TributaryClient client;

    @BeforeEach
    void start() {
        node = new FakeNode();
        client = node.clients().connect(List.of("fake:1"), Duration.ofSeconds(10), "u");
    }

    @AfterEach
    void stop() {
        client.close();
        node.close();
    }

    private ResultSet result(ExecuteResponse response) {
        node.onExecute = r -> response;
        return client.execute("SELECT");
    }

    @Test
    void looksLikeCqlsh() {
        ResultSet rs = result(FakeNode.rows(List.of("k int", "name text", "ts timestamp"), List.of(
                List.of(1, "ann", Instant.parse("2020-03-25T12:44:43.006Z")),
                Arrays.asList(1234, "bo", null))));
        assertEquals("\n"
                + " k    | name | ts\n"
                + "------+------+---------------------------------\n"
                + "    1 |  ann | 2020-03-25 12:44:43.006000+0000\n"
                + " 1234 |   bo |                            null\n"
                + "\n"
                + "(2 rows)\n", TableFormatter.format(rs));
    }

    @Test
    void headersWiderThanValuesAreLeftAlignedAndTheLastOneIsNotPadded() {
        ResultSet rs = result(FakeNode.rows(List.of("cdc$stream_id blob", "ok boolean", "longheader int"), List.of(
                List.of(ByteBuffer.wrap(new byte[] {1}), true, 5))));
        assertEquals("\n"
                + " cdc$stream_id | ok   | longheader\n"
                + "---------------+------+------------\n"
                + "          0x01 | True |          5\n"
                + "\n"
                + "(1 rows)\n", TableFormatter.format(rs));
    }

    @Test
    void noRowsStillShowsTheHeader() {
        ResultSet rs = result(FakeNode.rows(List.of("k int", "v text"), List.of()));
        assertEquals("\n k | v\n---+---\n\n(0 rows)\n", TableFormatter.format(rs));
    }
}
