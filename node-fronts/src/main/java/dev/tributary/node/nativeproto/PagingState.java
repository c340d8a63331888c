package dev.tributary.node.nativeproto;

import dev.tributary.node.errors.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Where the next page of a result starts, as the opaque paging state a client hands back: the
 * number of rows already sent and a digest of the statement and its values, so a state is only
 * accepted for the request it came from. The next page runs the statement again and skips the
 * rows sent: like Cassandra's, a page reflects the data when it is read.
 */
record PagingState(int offset, byte[] statementDigest) {
    static final int DIGEST_BYTES = 16;

    ByteBuffer encode() {
        return ByteBuffer.allocate(4 + DIGEST_BYTES).putInt(offset).put(statementDigest).flip();
    }

    /** @throws InvalidRequestException for a state this node did not make for this statement */
    static PagingState decode(ByteBuffer b, byte[] expectedDigest) {
        if (b.remaining() != 4 + DIGEST_BYTES) {
            throw new InvalidRequestException("invalid paging state: " + b.remaining() + " bytes, not a state this node made");
        }
        ByteBuffer d = b.duplicate();
        int offset = d.getInt();
        byte[] digest = new byte[DIGEST_BYTES];
        d.get(digest);
        if (offset < 0 || !Arrays.equals(digest, expectedDigest)) {
            throw new InvalidRequestException("invalid paging state: it belongs to another statement or other values");
        }
        return new PagingState(offset, digest);
    }
}
