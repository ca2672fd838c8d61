package dev.panamaverbs.cm;

import dev.panamaverbs.ffm.rdmacm.sockaddr_storage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * {@link InetSocketAddress} to and from C {@code struct sockaddr_in} / {@code sockaddr_in6}
 * (inside a {@code sockaddr_storage}), as rdma_cm takes and reports addresses. Ports and
 * addresses are in network byte order in C.
 */
final class SocketAddresses {
    static final short AF_INET = 2;
    static final short AF_INET6 = 10;
    private static final ValueLayout.OfShort PORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private SocketAddresses() {}

    /**
     * Checks an address given to {@code verb} before any native call: not null, resolved (rdma_cm
     * takes IP addresses, not names), IPv4 or IPv6, port 0..65535.
     */
    static InetSocketAddress check(String verb, InetSocketAddress address) {
        Objects.requireNonNull(address, verb + ": address is null");
        if (address.isUnresolved()) {
            throw new IllegalArgumentException(verb + ": " + address + " is unresolved: rdma_cm needs an IP address");
        }
        return address;
    }

    /** A zeroed {@code sockaddr_storage} holding {@code address}. */
    static MemorySegment write(Arena arena, InetSocketAddress address) {
        MemorySegment storage = arena.allocate(sockaddr_storage.LAYOUT);
        InetAddress ip = address.getAddress();
        byte[] raw = ip.getAddress();
        if (ip instanceof Inet4Address) {
            storage.set(ValueLayout.JAVA_SHORT, 0, AF_INET);
            storage.set(PORT, 2, (short) address.getPort());
            MemorySegment.copy(raw, 0, storage, ValueLayout.JAVA_BYTE, 4, 4);
        } else {
            storage.set(ValueLayout.JAVA_SHORT, 0, AF_INET6);
            storage.set(PORT, 2, (short) address.getPort());
            MemorySegment.copy(raw, 0, storage, ValueLayout.JAVA_BYTE, 8, 16);
            if (ip instanceof Inet6Address v6) {
                storage.set(ValueLayout.JAVA_INT, 24, v6.getScopeId());
            }
        }
        return storage;
    }

    /** The address in a {@code sockaddr} (IPv4 or IPv6), or null for another family or none. */
    static InetSocketAddress read(MemorySegment sockaddr) {
        short family = sockaddr.get(ValueLayout.JAVA_SHORT, 0);
        int port = Short.toUnsignedInt(sockaddr.get(PORT, 2));
        try {
            if (family == AF_INET) {
                byte[] raw = sockaddr.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE);
                return new InetSocketAddress(InetAddress.getByAddress(raw), port);
            }
            if (family == AF_INET6) {
                byte[] raw = sockaddr.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
                return new InetSocketAddress(InetAddress.getByAddress(raw), port);
            }
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
        return null;
    }

    /** {@code a.b.c.d:port}, without a host name lookup. */
    static String format(InetSocketAddress address) {
        if (address == null) {
            return "(no address)";
        }
        String host = address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
