package dev.tributary.node.nativeproto;

import com.datastax.oss.protocol.internal.PrimitiveCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * The native protocol's primitive types ([int], [string], [bytes], [inetaddr], ...) over Netty
 * buffers, for native-protocol's frame and message codecs. Stateless apart from the allocator;
 * thread-safe.
 */
final class ByteBufPrimitiveCodec implements PrimitiveCodec<ByteBuf> {
    private final ByteBufAllocator allocator;

    ByteBufPrimitiveCodec(ByteBufAllocator allocator) {
        this.allocator = allocator;
    }

    @Override
    public ByteBuf allocate(int size) {
        return allocator.ioBuffer(size, size);
    }

    @Override
    public void release(ByteBuf toRelease) {
        toRelease.release();
    }

    @Override
    public int sizeOf(ByteBuf toMeasure) {
        return toMeasure.readableBytes();
    }

    @Override
    public ByteBuf concat(ByteBuf left, ByteBuf right) {
        CompositeByteBuf c = allocator.compositeBuffer(2);
        c.addComponents(true, left, right);
        return c;
    }

    @Override
    public void markReaderIndex(ByteBuf source) {
        source.markReaderIndex();
    }

    @Override
    public void resetReaderIndex(ByteBuf source) {
        source.resetReaderIndex();
    }

    @Override
    public byte readByte(ByteBuf source) {
        return source.readByte();
    }

    @Override
    public int readInt(ByteBuf source) {
        return source.readInt();
    }

    @Override
    public int readInt(ByteBuf source, int offset) {
        return source.getInt(source.readerIndex() + offset);
    }

    @Override
    public InetAddress readInetAddr(ByteBuf source) {
        int length = source.readUnsignedByte();
        byte[] bytes = new byte[length];
        source.readBytes(bytes);
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("an [inetaddr] of " + length + " bytes is neither IPv4 nor IPv6", e);
        }
    }

    @Override
    public long readLong(ByteBuf source) {
        return source.readLong();
    }

    @Override
    public int readUnsignedShort(ByteBuf source) {
        return source.readUnsignedShort();
    }

    @Override
    public ByteBuffer readBytes(ByteBuf source) {
        int length = source.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        source.readBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    @Override
    public byte[] readShortBytes(ByteBuf source) {
        int length = source.readUnsignedShort();
        byte[] bytes = new byte[length];
        source.readBytes(bytes);
        return bytes;
    }

    @Override
    public String readString(ByteBuf source) {
        int length = source.readUnsignedShort();
        return readUtf8(source, length);
    }

    @Override
    public String readLongString(ByteBuf source) {
        int length = source.readInt();
        return readUtf8(source, length);
    }

    private static String readUtf8(ByteBuf source, int length) {
        if (length < 0 || length > source.readableBytes()) {
            throw new IllegalArgumentException("a string of " + length + " bytes where " + source.readableBytes()
                    + " remain in the frame");
        }
        String s = source.toString(source.readerIndex(), length, StandardCharsets.UTF_8);
        source.skipBytes(length);
        return s;
    }

    @Override
    public ByteBuf readRetainedSlice(ByteBuf source, int sliceLength) {
        return source.readRetainedSlice(sliceLength);
    }

    @Override
    public void updateCrc(ByteBuf source, CRC32 crc) {
        crc.update(source.nioBuffer());
    }

    @Override
    public void writeByte(byte b, ByteBuf dest) {
        dest.writeByte(b);
    }

    @Override
    public void writeInt(int i, ByteBuf dest) {
        dest.writeInt(i);
    }

    @Override
    public void writeInetAddr(InetAddress address, ByteBuf dest) {
        byte[] bytes = address.getAddress();
        dest.writeByte(bytes.length);
        dest.writeBytes(bytes);
    }

    @Override
    public void writeLong(long l, ByteBuf dest) {
        dest.writeLong(l);
    }

    @Override
    public void writeUnsignedShort(int i, ByteBuf dest) {
        dest.writeShort(i);
    }

    @Override
    public void writeString(String s, ByteBuf dest) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        dest.writeShort(bytes.length);
        dest.writeBytes(bytes);
    }

    @Override
    public void writeLongString(String s, ByteBuf dest) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        dest.writeInt(bytes.length);
        dest.writeBytes(bytes);
    }

    @Override
    public void writeBytes(ByteBuffer bytes, ByteBuf dest) {
        if (bytes == null) {
            dest.writeInt(-1);
        } else {
            dest.writeInt(bytes.remaining());
            dest.writeBytes(bytes.duplicate());
        }
    }

    @Override
    public void writeBytes(byte[] bytes, ByteBuf dest) {
        if (bytes == null) {
            dest.writeInt(-1);
        } else {
            dest.writeInt(bytes.length);
            dest.writeBytes(bytes);
        }
    }

    @Override
    public void writeShortBytes(byte[] bytes, ByteBuf dest) {
        dest.writeShort(bytes.length);
        dest.writeBytes(bytes);
    }
}
