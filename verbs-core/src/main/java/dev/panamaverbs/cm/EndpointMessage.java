package dev.panamaverbs.cm;

import dev.panamaverbs.RemoteRegion;
import dev.panamaverbs.cm.EndpointExchangeException.Reason;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.Mtu;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The endpoint exchange's wire format, version 1 (the table is in {@link EndpointExchange}):
 * encoding, and decoding that refuses anything out of range with {@link Reason#GARBAGE} or
 * {@link Reason#VERSION_MISMATCH}.
 */
final class EndpointMessage {
    /** {@link EndpointExchange#MAGIC}: defined here, with the format, and published there. */
    static final int MAGIC = 0x50564550;
    /** {@link EndpointExchange#VERSION}. */
    static final int VERSION = 1;
    /** {@link EndpointExchange#MESSAGE_SIZE}. */
    static final int MESSAGE_SIZE = 64;
    /** The bytes a receiver reads first: the magic and the version. */
    static final int HEADER_SIZE = 8;
    private static final int FLAG_GID = 1, FLAG_REGION = 2, KNOWN_FLAGS = FLAG_GID | FLAG_REGION;

    private EndpointMessage() {}

    /** {@code info} as a version 1 message ({@link EndpointExchange#encode}). */
    static byte[] encode(EndpointInfo info) {
        ByteBuffer buffer = ByteBuffer.allocate(MESSAGE_SIZE); // big-endian
        int flags = (info.gid() != null ? FLAG_GID : 0) | (info.region().isPresent() ? FLAG_REGION : 0);
        buffer.putInt(MAGIC).putShort((short) VERSION).putShort((short) flags)
                .putInt(info.qpn()).putInt(info.psn()).putShort((short) info.lid())
                .put((byte) info.mtu().value()).put((byte) 0).putInt(info.qkey());
        buffer.put(info.gid() != null ? info.gid().toByteArray() : new byte[Gid.SIZE]);
        RemoteRegion region = info.region().orElse(new RemoteRegion(0, 0, 0));
        buffer.putLong(region.address()).putInt(region.rkey()).putInt(0).putLong(region.length());
        return buffer.array();
    }

    /** The endpoint in a version 1 message ({@link EndpointExchange#decode}). */
    static EndpointInfo decode(byte[] message) throws EndpointExchangeException {
        if (message.length < HEADER_SIZE) {
            throw garbage("an endpoint message is " + MESSAGE_SIZE + " bytes, got " + message.length);
        }
        checkHeader(Arrays.copyOf(message, HEADER_SIZE));
        if (message.length != MESSAGE_SIZE) {
            throw garbage("a version " + VERSION + " endpoint message is " + MESSAGE_SIZE + " bytes, got " + message.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(message);
        buffer.position(6);
        int flags = Short.toUnsignedInt(buffer.getShort());
        int qpn = buffer.getInt(), psn = buffer.getInt(), lid = Short.toUnsignedInt(buffer.getShort());
        int mtuValue = Byte.toUnsignedInt(buffer.get()), reserved1 = buffer.get(), qkey = buffer.getInt();
        byte[] gid = new byte[Gid.SIZE];
        buffer.get(gid);
        long address = buffer.getLong();
        int rkey = buffer.getInt(), reserved2 = buffer.getInt();
        long length = buffer.getLong();
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw garbage("unknown flags 0x" + Integer.toHexString(flags & ~KNOWN_FLAGS));
        }
        if (reserved1 != 0 || reserved2 != 0) {
            throw garbage("reserved bytes are not zero");
        }
        // Unsigned: a peer's 0x80000000 or 0xffffffff is out of range, not a negative number.
        if (Integer.compareUnsigned(qpn, 0xFF_FFFF) > 0 || Integer.compareUnsigned(psn, 0xFF_FFFF) > 0) {
            throw garbage("queue pair number 0x" + Integer.toHexString(qpn) + " or PSN 0x" + Integer.toHexString(psn)
                    + " wider than 24 bits");
        }
        Mtu mtu = Mtu.orNull(mtuValue);
        if (mtu == null) {
            throw garbage("unknown MTU value " + mtuValue + " (ibv_mtu is 1..5)");
        }
        boolean hasGid = (flags & FLAG_GID) != 0, hasRegion = (flags & FLAG_REGION) != 0;
        if (!hasGid && !Arrays.equals(gid, new byte[Gid.SIZE])) {
            throw garbage("GID bytes without the GID flag");
        }
        if (!hasRegion && (address != 0 || rkey != 0 || length != 0)) {
            throw garbage("memory region fields without the region flag");
        }
        if (length < 0) {
            throw garbage("memory region length " + Long.toUnsignedString(length) + " is too large");
        }
        try {
            return new EndpointInfo(qpn, psn, lid, hasGid ? Gid.of(gid) : null, mtu, qkey,
                    hasRegion ? Optional.of(new RemoteRegion(address, rkey, length)) : Optional.empty());
        } catch (IllegalArgumentException e) {
            // Every field is checked above; should a value constructor ever check more, it is still GARBAGE.
            throw new EndpointExchangeException(Reason.GARBAGE, "malformed endpoint message: " + e.getMessage(), e);
        }
    }

    /** Checks the first {@link #HEADER_SIZE} bytes: the magic, then the version. */
    static void checkHeader(byte[] header) throws EndpointExchangeException {
        ByteBuffer buffer = ByteBuffer.wrap(header);
        int magic = buffer.getInt();
        if (magic != MAGIC) {
            throw garbage("not a panama-verbs endpoint message: it starts with " + HexFormat.of().formatHex(header, 0, 4)
                    + ", not the magic 50564550 (\"PVEP\")");
        }
        int version = Short.toUnsignedInt(buffer.getShort());
        if (version != VERSION) {
            throw new EndpointExchangeException(Reason.VERSION_MISMATCH, "the peer sent an endpoint message of version "
                    + version + "; this side speaks version " + VERSION);
        }
    }

    static EndpointExchangeException garbage(String what) {
        return new EndpointExchangeException(Reason.GARBAGE, "malformed endpoint message: " + what);
    }
}
