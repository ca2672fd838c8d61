package dev.panamaverbs.perftest.wire;

import dev.panamaverbs.values.Gid;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;

/**
 * perftest's {@code struct pingpong_dest} as it crosses the TCP connection: fixed-size ASCII text,
 * colon-separated lower-case hex fields, NUL-terminated. Two sizes, chosen by whether the sender
 * uses a GID index (always on RoCE; on InfiniBand only with {@code -x}):
 * <pre>
 * without GID,  59 bytes: LID(4):OUT_READS(4):QPN(6):PSN(6):RKEY(8):VADDR(16):SRQN(8) NUL
 * with GID,    108 bytes: LID(4):OUT_READS(4):QPN(6):PSN(6):RKEY(8):VADDR(16):G0:G1:...:G15:SRQN(8): NUL
 * </pre>
 * ({@code Gn} the GID's bytes in order, two hex digits each). Both sides must agree on the size;
 * each reads exactly as many bytes as it writes. Every "hand shake" of perftest is one such
 * message each way (see {@link OobChannel#exchange}).
 *
 * @param lid      the port's LID (0 on RoCE)
 * @param outReads outstanding RDMA READs / atomics the sender allows
 * @param qpn      its queue pair number (24 bits)
 * @param psn      its initial packet sequence number (24 bits)
 * @param rkey     the rkey of its buffer
 * @param vaddr    the address of its buffer's remote-access part
 * @param gid      its GID, or {@code null} in the 59-byte form
 * @param srqn     its SRQ number (XRC/DC only; 0 otherwise)
 */
public record KeyMessage(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
    /** {@code KEY_MSG_SIZE}: the form without GID, its NUL included. */
    public static final int SIZE = 59;
    /** {@code KEY_MSG_SIZE_GID}: the form with GID, its NUL included. */
    public static final int SIZE_WITH_GID = 108;

    private static final HexFormat HEX = HexFormat.of();

    /** The message's size on the wire: {@link #SIZE_WITH_GID} when it carries a GID. */
    public int wireSize() {
        return gid == null ? SIZE : SIZE_WITH_GID;
    }

    /** The message's bytes, NUL included. */
    public byte[] encode() {
        StringBuilder text = new StringBuilder(SIZE_WITH_GID);
        text.append(String.format(Locale.ROOT, "%04x:%04x:%06x:%06x:%08x:%016x:", lid & 0xFFFF, outReads & 0xFFFF,
                qpn & 0xFF_FFFF, psn & 0xFF_FFFF, rkey, vaddr));
        if (gid == null) {
            text.append(String.format(Locale.ROOT, "%08x", srqn));
        } else {
            byte[] raw = gid.toByteArray();
            for (byte b : raw) {
                text.append(HEX.toHexDigits(b)).append(':');
            }
            text.append(String.format(Locale.ROOT, "%08x:", srqn));
        }
        text.append('\0');
        byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
        if (bytes.length != wireSize()) {
            throw new IllegalStateException("key message is " + bytes.length + " bytes, not " + wireSize());
        }
        return bytes;
    }

    /**
     * Parses a message of {@code bytes.length} bytes ({@link #SIZE} or {@link #SIZE_WITH_GID}).
     *
     * @throws ProtocolException when the bytes are not a perftest key message, naming what is wrong
     */
    public static KeyMessage decode(byte[] bytes) throws ProtocolException {
        boolean withGid = switch (bytes.length) {
            case SIZE -> false;
            case SIZE_WITH_GID -> true;
            default -> throw new ProtocolException("a key message is " + SIZE + " or " + SIZE_WITH_GID + " bytes, not " + bytes.length);
        };
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) {
            end++;
        }
        String text = new String(bytes, 0, end, StandardCharsets.US_ASCII);
        String[] fields = text.split(":", -1);
        int expected = withGid ? 6 + Gid.SIZE + 2 : 7;     // with GID: a trailing ':' leaves an empty last field
        if (fields.length != expected || (withGid && !fields[expected - 1].isEmpty())) {
            throw new ProtocolException("not a perftest key message of " + bytes.length + " bytes"
                    + (withGid ? " (with GID)" : " (without GID)") + ": \"" + printable(text) + "\"");
        }
        int lid = (int) hex(fields[0], "LID", text);
        int outReads = (int) hex(fields[1], "OUT_READS", text);
        int qpn = (int) hex(fields[2], "QPN", text);
        int psn = (int) hex(fields[3], "PSN", text);
        int rkey = (int) hex(fields[4], "RKEY", text);
        long vaddr = hex(fields[5], "VADDR", text);
        Gid gid = null;
        int srqn;
        if (withGid) {
            byte[] raw = new byte[Gid.SIZE];
            for (int i = 0; i < Gid.SIZE; i++) {
                raw[i] = (byte) hex(fields[6 + i], "GID byte " + i, text);
            }
            gid = Gid.of(raw);
            srqn = (int) hex(fields[6 + Gid.SIZE], "SRQN", text);
        } else {
            srqn = (int) hex(fields[6], "SRQN", text);
        }
        return new KeyMessage(lid, outReads, qpn, psn, rkey, vaddr, gid, srqn);
    }

    private static long hex(String field, String name, String text) throws ProtocolException {
        if (field.isEmpty() || field.length() > 16) {
            throw new ProtocolException("bad " + name + " field \"" + field + "\" in key message \"" + printable(text) + "\"");
        }
        try {
            return Long.parseUnsignedLong(field, 16);
        } catch (NumberFormatException e) {
            throw new ProtocolException("bad " + name + " field \"" + field + "\" in key message \"" + printable(text) + "\"");
        }
    }

    /** C's {@code %#0Nx}: "0x" and the digits, zero-padded to {@code width} in all; 0 is just zeros. */
    static String alternateHex(long value, int width) {
        String digits = Long.toHexString(value);
        String prefix = value == 0 ? "" : "0x";
        int pad = Math.max(0, width - prefix.length() - digits.length());
        return prefix + "0".repeat(pad) + digits;
    }

    static String printable(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            out.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format(Locale.ROOT, "\\x%02x", (int) c));
        }
        return out.toString();
    }

    /** perftest's {@code ctx_print_pingpong_data} line for this side ({@code "local"} or {@code "remote"}), RDMA fields for WRITE/READ. */
    public String describe(String side, boolean rdmaFields, boolean outReadsField) {
        StringBuilder line = new StringBuilder(" " + side + " address: LID " + alternateHex(lid, 4) + " QPN "
                + alternateHex(qpn, 6) + " PSN " + alternateHex(psn, 6));
        if (outReadsField) {
            line.append(" OUT ").append(alternateHex(outReads, 4));
        }
        if (rdmaFields) {
            line.append(" RKey ").append(alternateHex(rkey & 0xFFFF_FFFFL, 8)).append(" VAddr ").append(alternateHex(vaddr, 16));
        }
        if (gid != null) {
            line.append('\n').append(" GID: ");
            byte[] raw = gid.toByteArray();
            for (int i = 0; i < raw.length; i++) {
                line.append(String.format(Locale.ROOT, i == 0 ? "%02d" : ":%02d", raw[i] & 0xFF));
            }
        }
        return line.toString();
    }
}
