package dev.panamaverbs.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * A 128-bit global identifier (C {@code union ibv_gid}), in network byte order as the wire and
 * the GID table hold it. On RoCE a GID is an IPv6 address, or an IPv4 address mapped into IPv6
 * ({@code ::ffff:a.b.c.d}) for RoCE v2 over IPv4. Immutable; equal when the bytes are equal.
 */
public final class Gid {
    /** Bytes in a GID. */
    public static final int SIZE = 16;
    private static final HexFormat HEX = HexFormat.of();

    private final byte[] raw;

    private Gid(byte[] raw) {
        this.raw = raw;
    }

    /**
     * The GID made of these 16 bytes (copied), network byte order.
     *
     * @param raw the raw bytes
     * @return the GID made of these 16 bytes (copied), network byte order
     */
    public static Gid of(byte[] raw) {
        if (raw == null || raw.length != SIZE) {
            throw new IllegalArgumentException("a GID is 16 bytes, got "
                    + (raw == null ? "null" : raw.length + " bytes"));
        }
        return new Gid(raw.clone());
    }

    /**
     * The GID stored at the start of {@code segment} (a {@code union ibv_gid}).
     *
     * @param segment memory starting with a {@code union ibv_gid} (16 bytes)
     * @return the GID
     */
    public static Gid read(MemorySegment segment) {
        return new Gid(segment.asSlice(0, SIZE).toArray(ValueLayout.JAVA_BYTE));
    }

    /** Writes this GID's 16 bytes to the start of {@code segment}. */
    void write(MemorySegment segment) {
        MemorySegment.copy(raw, 0, segment, ValueLayout.JAVA_BYTE, 0, SIZE);
    }

    /**
     * Parses a GID written as eight groups of four hex digits ({@code fe80:0000:...:0001}, how
     * {@code ibv_devinfo} shows it) or as any IPv6 or IPv4 literal ({@code fe80::1},
     * {@code ::ffff:10.0.2.15}, {@code 10.0.2.15}: IPv4 is mapped into IPv6). No name lookup.
     *
     * @param text the GID or IP address literal
     * @return the GID
     */
    public static Gid parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("GID text is empty");
        }
        String trimmed = text.strip();
        if (trimmed.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            return fromIpv4(trimmed, text);
        }
        if (!trimmed.matches("[0-9A-Fa-f:.]+") || !trimmed.contains(":")) {
            throw new IllegalArgumentException("not a GID: '" + text + "'");
        }
        try {
            // Bracketed, InetAddress takes the text as an IPv6 literal only: never a name lookup.
            return fromInetAddress(InetAddress.getByName("[" + trimmed + "]"));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not a GID: '" + text + "'", e);
        }
    }

    /** A dotted quad, parsed here rather than by InetAddress (which would look up an invalid one as a name). */
    private static Gid fromIpv4(String dotted, String original) {
        String[] parts = dotted.split("\\.");
        byte[] mapped = new byte[SIZE];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        for (int i = 0; i < 4; i++) {
            int octet = Integer.parseInt(parts[i]);
            if (octet > 255) {
                throw new IllegalArgumentException("not a GID: '" + original + "' (IPv4 octet " + octet + " > 255)");
            }
            mapped[12 + i] = (byte) octet;
        }
        return new Gid(mapped);
    }

    /**
     * The GID for an IP address: IPv6 as is, IPv4 mapped to {@code ::ffff:a.b.c.d}.
     *
     * @param address the IPv4 or IPv6 address
     * @return the GID for an IP address: IPv6 as is, IPv4 mapped to {@code ::ffff:a.b.c.d}
     */
    public static Gid fromInetAddress(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address) {
            byte[] mapped = new byte[SIZE];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            return new Gid(mapped);
        }
        return new Gid(bytes);
    }

    /**
     * A copy of the 16 bytes, network byte order.
     *
     * @return a copy of the 16 bytes, network byte order
     */
    public byte[] toByteArray() {
        return raw.clone();
    }

    /**
     * The upper 64 bits ({@code global.subnet_prefix}) as a number.
     *
     * @return the upper 64 bits ({@code global.subnet_prefix}) as a number
     */
    public long subnetPrefix() {
        return toLong(0);
    }

    /**
     * The lower 64 bits ({@code global.interface_id}) as a number.
     *
     * @return the lower 64 bits ({@code global.interface_id}) as a number
     */
    public long interfaceId() {
        return toLong(8);
    }

    private long toLong(int from) {
        long value = 0;
        for (int i = from; i < from + 8; i++) {
            value = (value << 8) | (raw[i] & 0xff);
        }
        return value;
    }

    /**
     * True when every byte is zero: an unused GID table slot.
     *
     * @return true when every byte is zero: an unused GID table slot
     */
    public boolean isZero() {
        for (byte b : raw) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * True for an IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}), what RoCE v2 over IPv4 uses.
     *
     * @return true for an IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}), what RoCE v2 over IPv4 uses
     */
    public boolean isIpv4Mapped() {
        for (int i = 0; i < 10; i++) {
            if (raw[i] != 0) {
                return false;
            }
        }
        return raw[10] == (byte) 0xff && raw[11] == (byte) 0xff;
    }

    /**
     * The IPv4 address when {@link #isIpv4Mapped()}, else empty.
     *
     * @return the IPv4 address when {@link #isIpv4Mapped()}, else empty
     */
    public Optional<Inet4Address> ipv4Address() {
        if (!isIpv4Mapped()) {
            return Optional.empty();
        }
        try {
            return Optional.of((Inet4Address) InetAddress.getByAddress(Arrays.copyOfRange(raw, 12, 16)));
        } catch (UnknownHostException e) {
            throw new AssertionError("4 bytes are always an IPv4 address", e);
        }
    }

    /**
     * This GID as an IPv6 address (never unwrapped to IPv4; see {@link #ipv4Address()}).
     *
     * @return this GID as an IPv6 address
     */
    public Inet6Address toInet6Address() {
        try {
            return Inet6Address.getByAddress(null, raw.clone(), null);
        } catch (UnknownHostException e) {
            throw new AssertionError("16 bytes are always an IPv6 address", e);
        }
    }

    /**
     * The usual text of an address: {@code ::ffff:10.0.2.15} for IPv4-mapped GIDs, the compressed
     * IPv6 form otherwise ({@code fe80::5054:ff:fe12:3456}).
     *
     * @return the usual text of an address: {@code ::ffff:10.0.2.15} for IPv4-mapped GIDs, the compressed IPv6 form otherwise ({@code fe80::5054:ff:fe12:3456})
     */
    public String toAddressString() {
        if (isIpv4Mapped()) {
            return "::ffff:" + ipv4Address().orElseThrow().getHostAddress();
        }
        String full = toInet6Address().getHostAddress();
        int scope = full.indexOf('%');
        return compress(scope < 0 ? full : full.substring(0, scope));
    }

    /** RFC 5952 compression of Java's uncompressed IPv6 text: the longest run of zero groups becomes "::". */
    private static String compress(String uncompressed) {
        String[] groups = uncompressed.split(":");
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < groups.length; ) {
            if (groups[i].equals("0")) {
                int j = i;
                while (j < groups.length && groups[j].equals("0")) {
                    j++;
                }
                if (j - i > bestLength) {
                    bestStart = i;
                    bestLength = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        if (bestStart < 0) {
            return uncompressed;
        }
        String head = String.join(":", Arrays.copyOfRange(groups, 0, bestStart));
        String tail = String.join(":", Arrays.copyOfRange(groups, bestStart + bestLength, groups.length));
        return head + "::" + tail;
    }

    /** Eight groups of four hex digits, as {@code ibv_devinfo -v} prints GIDs. */
    @Override
    public String toString() {
        String hex = HEX.formatHex(raw);
        StringBuilder text = new StringBuilder(39);
        for (int i = 0; i < 32; i += 4) {
            if (i > 0) {
                text.append(':');
            }
            text.append(hex, i, i + 4);
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Gid gid && Arrays.equals(raw, gid.raw);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(raw);
    }
}
