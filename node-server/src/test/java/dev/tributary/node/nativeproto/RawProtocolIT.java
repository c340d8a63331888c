package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.protocol.internal.Compressor;
import com.datastax.oss.protocol.internal.Frame;
import com.datastax.oss.protocol.internal.FrameCodec;
import com.datastax.oss.protocol.internal.Message;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import com.datastax.oss.protocol.internal.request.Execute;
import com.datastax.oss.protocol.internal.request.Options;
import com.datastax.oss.protocol.internal.request.Query;
import com.datastax.oss.protocol.internal.request.Startup;
import com.datastax.oss.protocol.internal.request.query.QueryOptions;
import com.datastax.oss.protocol.internal.response.Error;
import com.datastax.oss.protocol.internal.response.Ready;
import com.datastax.oss.protocol.internal.response.Supported;
import com.datastax.oss.protocol.internal.response.error.Unprepared;
import com.datastax.oss.protocol.internal.response.result.Rows;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native endpoint frame by frame, as a driver's first exchanges see it: the version
 * negotiation answer drivers fall back on, the order STARTUP imposes, UNPREPARED, and bad frames
 * that leave the node serving.
 */
@Timeout(60)
class RawProtocolIT {
    private static final FrameCodec<ByteBuf> CLIENT = FrameCodec.defaultClient(
            new ByteBufPrimitiveCodec(UnpooledByteBufAllocator.DEFAULT), Compressor.none());

    /** One connection: sends frames, reads the answers. */
    private static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;
        private int stream;

        Connection(TributaryNode node) throws Exception {
            String ep = node.nativeEndpoint();
            socket = new Socket("127.0.0.1", Integer.parseInt(ep.substring(ep.lastIndexOf(':') + 1)));
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }

        Frame send(int version, Message m) throws Exception {
            ByteBuf b = CLIENT.encode(Frame.forRequest(version, ++stream, false, Frame.NO_PAYLOAD, m));
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            b.release();
            return raw(bytes);
        }

        Frame raw(byte[] bytes) throws Exception {
            out.write(bytes);
            out.flush();
            byte[] header = new byte[9];
            in.readFully(header);
            int length = ((header[5] & 0xff) << 24) | ((header[6] & 0xff) << 16) | ((header[7] & 0xff) << 8) | (header[8] & 0xff);
            byte[] body = new byte[length];
            in.readFully(body);
            ByteBuf frame = Unpooled.wrappedBuffer(header, body);
            try {
                return CLIENT.decode(frame);
            } finally {
                frame.release();
            }
        }

        @Override
        public void close() throws java.io.IOException {
            socket.close();
        }
    }

    @Test
    @DisplayName("v5 and beta requests get the protocol error drivers retry a lower version on; v4 then works")
    void versionNegotiation(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TestNodes.startOperating(dir.resolve("n1")); Connection c = new Connection(node)) {
            Frame v5 = c.send(ProtocolConstants.Version.V5, new Startup());
            assertEquals(4, v5.protocolVersion, "answered in v4");
            Error e = assertInstanceOf(Error.class, v5.message);
            assertEquals(ProtocolConstants.ErrorCode.PROTOCOL_ERROR, e.code);
            assertTrue(e.message.startsWith("Invalid or unsupported protocol version (5"), e.message);
            // v6 is a beta version: the beta flag set
            Frame beta = c.send(ProtocolConstants.Version.V6, Options.INSTANCE);
            assertTrue(((Error) beta.message).message.contains("Invalid or unsupported protocol version (6/v6-beta)"),
                    ((Error) beta.message).message);

            Error early = assertInstanceOf(Error.class, c.send(4, new Query("SELECT * FROM system.local")).message);
            assertEquals(ProtocolConstants.ErrorCode.PROTOCOL_ERROR, early.code, "STARTUP comes first");
            Supported supported = assertInstanceOf(Supported.class, c.send(4, Options.INSTANCE).message);
            assertEquals(List.of("3.4.4"), supported.options.get("CQL_VERSION"));
            Error compressed = assertInstanceOf(Error.class, c.send(4, new Startup(Map.of("CQL_VERSION", "3.0.0",
                    "COMPRESSION", "lz4"))).message);
            assertTrue(compressed.message.contains("compression lz4 is not supported"), compressed.message);
            assertInstanceOf(Ready.class, c.send(4, new Startup()).message);
            Rows rows = assertInstanceOf(Rows.class, c.send(4, new Query("SELECT release_version FROM system.local")).message);
            assertEquals(1, rows.getData().size());

            Unprepared unprepared = assertInstanceOf(Unprepared.class, c.send(4, new Execute(new byte[] {1, 2, 3},
                    QueryOptions.DEFAULT)).message);
            assertTrue(unprepared.message.contains("0x010203"), unprepared.message);

            // a frame whose body is no message of its opcode: an error, and the node keeps serving
            byte[] garbage = {4, 0, 0, 9, ProtocolConstants.Opcode.QUERY, 0, 0, 0, 2, 0x7f, 0x7f};
            Error bad = assertInstanceOf(Error.class, c.raw(garbage).message);
            assertEquals(ProtocolConstants.ErrorCode.PROTOCOL_ERROR, bad.code);
            assertInstanceOf(Rows.class, c.send(4, new Query("SELECT key FROM system.local")).message);
        }
    }
}
