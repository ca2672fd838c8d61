package dev.panamaverbs.perftest.wire;

import dev.panamaverbs.values.Gid;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * perftest's {@code struct pingpong_dest} as it crosses an rdma_cm connection ({@code -R}):
 * not text as over TCP ({@link KeyMessage}) but the C struct itself, {@value #SIZE} bytes, its
 * integers big-endian ({@code rdma_write_keys} converts each with {@code htobe32}/{@code htobe64}):
 * <pre>
 *  0 lid        4 out_reads   8 qpn   12 psn   16 rkey   20 (padding, sent as 0)
 * 24 vaddr (8)  32 gid (16 bytes, as is)      48 srqn   52 gid_index
 * </pre>
 * The reader ({@code rdma_read_keys}) takes lid, out_reads, qpn, psn, rkey, vaddr and the GID;
 * it ignores srqn and gid_index.
 */
public final class KeyStruct {
    /** {@code sizeof(struct pingpong_dest)} on x86-64: also the size of every receive perftest posts on that connection. */
    public static final int SIZE = 56;

    private KeyStruct() {}

    /**
     * {@code message} as the struct; {@code gidIndex} is the sender's GID index (-1 without GID).
     * A message without GID sends 16 zero bytes in its place.
     */
    public static byte[] encode(KeyMessage message, int gidIndex) {
        ByteBuffer out = ByteBuffer.allocate(SIZE);
        out.putInt(message.lid()).putInt(message.outReads()).putInt(message.qpn()).putInt(message.psn())
                .putInt(message.rkey()).putInt(0).putLong(message.vaddr());
        out.put(message.gid() == null ? new byte[Gid.SIZE] : message.gid().toByteArray());
        out.putInt(message.srqn()).putInt(gidIndex);
        return out.array();
    }

    /**
     * The struct in {@code bytes} (exactly {@value #SIZE}); its GID kept when {@code withGid}
     * (perftest reads the peer's in the form its own side uses), else dropped.
     *
     * @throws ProtocolException when {@code bytes} is not {@value #SIZE} bytes long
     */
    public static KeyMessage decode(byte[] bytes, boolean withGid) throws ProtocolException {
        if (bytes.length != SIZE) {
            throw new ProtocolException("a key struct over rdma_cm is " + SIZE + " bytes, not " + bytes.length);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int lid = in.getInt(0);
        int outReads = in.getInt(4);
        int qpn = in.getInt(8);
        int psn = in.getInt(12);
        int rkey = in.getInt(16);
        long vaddr = in.getLong(24);
        Gid gid = withGid ? Gid.of(Arrays.copyOfRange(bytes, 32, 48)) : null;
        int srqn = in.getInt(48);
        return new KeyMessage(lid, outReads, qpn, psn, rkey, vaddr, gid, srqn);
    }

    /** The sender's GID index (field {@code gid_index}; perftest's reader ignores it). */
    public static int gidIndex(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getInt(52);
    }
}
