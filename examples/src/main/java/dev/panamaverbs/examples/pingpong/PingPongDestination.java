package dev.panamaverbs.examples.pingpong;

import dev.panamaverbs.values.Gid;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

/**
 * One side's address as {@code ibv_rc_pingpong} sends it over TCP: the text
 * {@code LLLL:QQQQQQ:PPPPPP:GGGG...} (LID 4 hex digits, QP number 6, PSN 6, then the GID as 32
 * hex digits, its 16 bytes in order), NUL-terminated, in a fixed {@value #MESSAGE_SIZE}-byte
 * message: {@code sizeof "0000:000000:000000:00000000000000000000000000000000"} in C. A zero GID
 * means "no GRH": the peer is then addressed by LID.
 *
 * @param lid the port's LID (0 on RoCE)
 * @param qpn the queue pair number (24 bits)
 * @param psn the first packet sequence number this side sends (24 bits)
 * @param gid the GID picked with {@code -g}, or the zero GID
 */
public record PingPongDestination(int lid, int qpn, int psn, Gid gid) {
    /** The message size both sides write and read: 51 characters and the NUL. */
    public static final int MESSAGE_SIZE = 52;
    private static final HexFormat HEX = HexFormat.of();

    /** Checks each field against its width in the message. */
    public PingPongDestination {
        check("LID", lid, 0xFFFF);
        check("QPN", qpn, 0xFF_FFFF);
        check("PSN", psn, 0xFF_FFFF);
        if (gid == null) {
            throw new IllegalArgumentException("GID is null (use the zero GID)");
        }
    }

    /** The all-zero GID rc_pingpong sends without {@code -g}. */
    public static Gid zeroGid() {
        return Gid.of(new byte[Gid.SIZE]);
    }

    /** The {@value #MESSAGE_SIZE}-byte message (text, then NUL). */
    public byte[] toMessage() {
        byte[] text = toText().getBytes(StandardCharsets.US_ASCII);
        return Arrays.copyOf(text, MESSAGE_SIZE);
    }

    /** The message text without its NUL. */
    public String toText() {
        return String.format(Locale.ROOT, "%04x:%06x:%06x:%s", lid, qpn, psn, HEX.formatHex(gid.toByteArray()));
    }

    /** Whether the peer wants a GRH: rc_pingpong tests the GID's interface ID ({@code gid.global.interface_id}). */
    public boolean hasGid() {
        return gid.interfaceId() != 0;
    }

    /** Parses a message (its text up to the first NUL). */
    public static PingPongDestination parse(byte[] message) {
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        return parse(new String(message, 0, end, StandardCharsets.US_ASCII));
    }

    /** Parses the text {@code lid:qpn:psn:gid}, all hexadecimal, the GID as 32 digits. */
    public static PingPongDestination parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an rc_pingpong address (LID:QPN:PSN:GID): '" + text + "'");
        }
        String gid = parts[3];
        if (gid.length() != 2 * Gid.SIZE) {
            throw new IllegalArgumentException("GID must be 32 hex digits, got '" + gid + "' in '" + text + "'");
        }
        try {
            return new PingPongDestination(Integer.parseInt(parts[0], 16), Integer.parseInt(parts[1], 16),
                    Integer.parseInt(parts[2], 16), Gid.of(HEX.parseHex(gid)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not hexadecimal: '" + text + "'", e);
        }
    }

    /** The line rc_pingpong prints for an address ({@code kind} "local" or "remote"). */
    public String describe(String kind) {
        String label = kind + " address:";
        return String.format(Locale.ROOT, "  %-15s LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s",
                label, lid, qpn, psn, gid.toAddressString());
    }

    private static void check(String field, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(field + " must be in 0.." + max + ", got " + value);
        }
    }
}
