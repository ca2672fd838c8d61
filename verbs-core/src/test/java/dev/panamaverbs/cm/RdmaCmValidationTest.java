package dev.panamaverbs.cm;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.TransportType;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.rdmacm.RdmaCmConstants;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** rdma_cm without a device: options, limits, event types, addresses, checks before any native call. */
class RdmaCmValidationTest {

    @Test
    void defaultsAreBoundedAndDocumented() {
        ConnectionOptions defaults = ConnectionOptions.defaults();
        assertEquals(6, defaults.retryCount(), "bounded: 7 retries for ever on rxe");
        assertTrue(defaults.retryCount() <= 6);
        assertEquals(7, defaults.rnrRetryCount());
        assertEquals(0, defaults.privateData().length);
        assertEquals(Duration.ofSeconds(2), defaults.resolveTimeout());
    }

    @Test
    void theBuilderSetsEveryFieldAndCopiesPrivateData() {
        byte[] data = {1, 2, 3};
        ConnectionOptions options = ConnectionOptions.builder().privateData(data).responderResources(4).initiatorDepth(2)
                .retryCount(3).rnrRetryCount(0).resolveTimeout(Duration.ofMillis(500)).connectTimeout(Duration.ofSeconds(1))
                .queueDepth(8, 16).maxSge(2).maxInlineData(64).completionQueueSize(32).backlog(4).build();
        data[0] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, options.privateData(), "copied in");
        options.privateData()[1] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, options.privateData(), "copied out");
        assertEquals(java.util.List.of(4, 2, 3, 0, 8, 16),
                java.util.List.of(options.responderResources(), options.initiatorDepth(), options.retryCount(),
                        options.rnrRetryCount(), options.maxSendWorkRequests(), options.maxReceiveWorkRequests()),
                "responder resources, initiator depth, retry count, RNR retry count, send and receive queue depths");
        assertEquals(options, options.toBuilder().build());
        assertEquals(options.hashCode(), options.toBuilder().build().hashCode());
    }

    @Test
    void outOfRangeOptionsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> ConnectionOptions.builder().retryCount(8).build());
        assertThrows(IllegalArgumentException.class, () -> ConnectionOptions.builder().rnrRetryCount(-1).build());
        assertThrows(IllegalArgumentException.class, () -> ConnectionOptions.builder().responderResources(256).build());
        assertThrows(IllegalArgumentException.class, () -> ConnectionOptions.builder().resolveTimeout(Duration.ofMillis(-1)).build());
        assertThrows(IllegalArgumentException.class, () -> ConnectionOptions.builder().connectTimeout(Duration.ofMillis(-1)).build());
        assertThrows(NullPointerException.class, () -> ConnectionOptions.builder().resolveTimeout(null).build());
        // the deadline rule: zero is one check, not a refusal
        assertEquals(Duration.ZERO, ConnectionOptions.builder().resolveTimeout(Duration.ZERO).build().resolveTimeout());
        assertThrows(IllegalArgumentException.class, () -> ConnectionOptions.builder().queueDepth(0, 1).build());
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> ConnectionOptions.builder().privateData(new byte[197]).build());
        assertTrue(tooLong.getMessage().contains("at most 196 bytes"), tooLong.getMessage());
    }

    @Test
    void privateDataLimitsFollowTheCm() {
        assertEquals(56, ConnectionOptions.MAX_CONNECT_PRIVATE_DATA);
        assertEquals(196, ConnectionOptions.MAX_ACCEPT_PRIVATE_DATA);
        assertEquals(148, ConnectionOptions.MAX_REJECT_PRIVATE_DATA);
        assertEquals(180, ConnectionOptions.MAX_DATAGRAM_REQUEST_PRIVATE_DATA);
        assertEquals(136, ConnectionOptions.MAX_DATAGRAM_REPLY_PRIVATE_DATA);
        ConnectionOptions.checkPrivateData("rdma_connect", new byte[56], 56);
        IllegalArgumentException over = assertThrows(IllegalArgumentException.class,
                () -> ConnectionOptions.checkPrivateData("rdma_connect", new byte[57], 56));
        assertTrue(over.getMessage().startsWith("rdma_connect: private data must be at most 56 bytes"), over.getMessage());
    }

    @Test
    void highLevelCallsCheckArgumentsBeforeAnyNativeCall() {
        InetSocketAddress somewhere = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7471);
        IllegalArgumentException tooMuch = assertThrows(IllegalArgumentException.class, () -> RdmaConnection.connect(
                somewhere, ConnectionOptions.builder().privateData(new byte[57]).build()));
        assertTrue(tooMuch.getMessage().contains("rdma_connect"), tooMuch.getMessage());
        IllegalArgumentException unresolved = assertThrows(IllegalArgumentException.class, () -> RdmaConnection.connect(
                InetSocketAddress.createUnresolved("no.such.host", 1), ConnectionOptions.defaults()));
        assertTrue(unresolved.getMessage().contains("unresolved"), unresolved.getMessage());
        assertThrows(NullPointerException.class, () -> RdmaListener.listen(null, ConnectionOptions.defaults()));
        assertThrows(NullPointerException.class, () -> RdmaConnection.connect(somewhere, null));
        assertThrows(IllegalArgumentException.class, () -> RdmaDatagramSocket.connect(somewhere,
                ConnectionOptions.builder().privateData(new byte[181]).build()));
    }

    @Test
    void eventTypesMapToTheCValues() {
        assertEquals(16, ConnectionEventType.values().length);
        for (ConnectionEventType type : ConnectionEventType.values()) {
            assertEquals(type, ConnectionEventType.orNull(type.value()));
        }
        assertEquals(RdmaCmConstants.RDMA_CM_EVENT_ESTABLISHED, ConnectionEventType.ESTABLISHED.value());
        assertEquals(ConnectionEventType.TIMEWAIT_EXIT, ConnectionEventType.orNull(15));
        assertNull(ConnectionEventType.orNull(99));
        assertTrue(ConnectionEventType.REJECTED.isFailure());
        assertTrue(ConnectionEventType.ADDR_ERROR.isFailure());
        assertFalse(ConnectionEventType.DISCONNECTED.isFailure());
        assertEquals(PortSpace.UDP, PortSpace.orNull(RdmaCmConstants.RDMA_PS_UDP));
        assertEquals(QueuePairType.UD, PortSpace.UDP.queuePairType());
        assertEquals(QueuePairType.RC, PortSpace.TCP.queuePairType());
    }

    @Test
    void aRejectByThePeerIsDecidedByTheTransport() {
        // IB and RoCE: the CM's reason 28 is the consumer's reject, 8 is nothing listening.
        assertTrue(rejectedOn(TransportType.IB, 28).rejectedByPeer());
        assertFalse(rejectedOn(TransportType.IB, 8).rejectedByPeer());
        assertTrue(rejectedOn(TransportType.IB, 8).getMessage().contains("nothing listens"));
        assertFalse(rejectedOn(TransportType.IB, -Errno.ECONNRESET).rejectedByPeer());
        // iWARP: the kernel's rule (-ECONNREFUSED) and siw's MPA reject (-ECONNRESET); 28 means nothing there.
        for (int status : new int[] {-Errno.ECONNREFUSED, -Errno.ECONNRESET}) {
            ConnectionRejectedException iwarp = rejectedOn(TransportType.IWARP, status);
            assertTrue(iwarp.rejectedByPeer(), iwarp.getMessage());
            assertEquals(TransportType.IWARP, iwarp.transport());
            assertEquals(Errno.ECONNREFUSED, iwarp.errno());
            assertTrue(iwarp.getMessage().contains("the peer rejected the connection"), iwarp.getMessage());
            assertTrue(iwarp.getMessage().contains(Errno.describe(-status)), iwarp.getMessage());
        }
        assertFalse(rejectedOn(TransportType.IWARP, 28).rejectedByPeer());
        assertFalse(rejectedOn(TransportType.IWARP, -Errno.ETIMEDOUT).rejectedByPeer());
        assertFalse(rejectedOn(TransportType.UNKNOWN, -Errno.ECONNRESET).rejectedByPeer());
        assertThrows(NullPointerException.class, () -> new ConnectionRejectedException("rdma_connect", "to 10.0.2.15:1",
                new ConnectionEvent(8, 28, new byte[0], 0, 0, 0, null, 0, 0), null));
    }

    @Test
    void aListenerWaitRetriesOnlyWhereNothingListensByTheTransport() {
        assertTrue(rejectedOn(TransportType.IB, 8).nothingListens(), "IB CM reason 8");
        assertFalse(rejectedOn(TransportType.IB, 28).nothingListens(), "the peer's reject");
        assertFalse(rejectedOn(TransportType.IWARP, 8).nothingListens());
        assertFalse(rejectedOn(TransportType.IWARP, -Errno.ECONNRESET).nothingListens(), "siw's reject");
        // iWARP: rdma_connect's own TCP connect met a reset
        assertTrue(new ConnectionException("rdma_connect", "to 10.0.2.15:1", Errno.ECONNREFUSED, null, null).nothingListens());
        assertFalse(new ConnectionException("rdma_connect", "to 10.0.2.15:1", Errno.ETIMEDOUT, null, null).nothingListens());
        assertFalse(new ConnectionException("rdma_resolve_addr", "to 10.0.2.15:1", Errno.ECONNREFUSED, null, null)
                .nothingListens());
        assertFalse(new ConnectionException("rdma_connect", "to 10.0.2.15:1", Errno.ECONNREFUSED,
                new ConnectionEvent(6, -Errno.ECONNREFUSED, new byte[0], 0, 0, 0, null, 0, 0), null).nothingListens(),
                "an event that ended the connect is not the synchronous refusal");
        // a datagram space (UD over rdma_cm): the SIDR reply's IB_SIDR_UNSUPPORTED, and no other status
        assertTrue(unreachable(1).nothingListens(), "SIDR: service ID not supported");
        assertFalse(unreachable(2).nothingListens(), "SIDR: rejected by the peer");
        assertFalse(unreachable(-Errno.ETIMEDOUT).nothingListens(), "no answer");
        assertTrue(unreachable(1).getMessage().contains("IB_SIDR_UNSUPPORTED: nothing listens"), unreachable(1).getMessage());
    }

    /** An rdma_connect in a datagram space ended UNREACHABLE (event 7) with {@code status}. */
    private static ConnectionException unreachable(int status) {
        return new ConnectionException("rdma_connect", "to 10.0.2.15:1", Errno.ENETUNREACH,
                new ConnectionEvent(7, status, new byte[0], 0, 0, 0, null, 0, 0), null);
    }

    @Test
    void aTryCutShortByTheListenerWaitKeepsTheAnswerThatNothingListens() {
        ConnectionRejectedException nothingThere = rejectedOn(TransportType.IB, 8);
        ConnectionException cutTimeout = new ConnectionException("rdma_connect", "to 10.0.2.15:1", Errno.ETIMEDOUT, null,
                "no ESTABLISHED within PT0.002698821S");
        assertSame(nothingThere, RdmaConnection.answer(cutTimeout, nothingThere, true), "the cut try only ran out of time");
        assertSame(cutTimeout, RdmaConnection.answer(cutTimeout, nothingThere, false), "a try with its full timeouts");
        assertSame(cutTimeout, RdmaConnection.answer(cutTimeout, null, true), "no try found nothing listening before");
        ConnectionRejectedException byThePeer = rejectedOn(TransportType.IB, 28);
        assertSame(byThePeer, RdmaConnection.answer(byThePeer, nothingThere, true), "not a timeout: the try's own answer");
    }

    private static ConnectionRejectedException rejectedOn(TransportType transport, int status) {
        return new ConnectionRejectedException("rdma_connect", "to 10.0.2.15:1",
                new ConnectionEvent(8, status, new byte[0], 0, 0, 0, null, 0, 0), transport);
    }

    @Test
    void statusesAreDescribed() {
        assertTrue(ConnectionEvent.describeStatus(ConnectionEventType.REJECTED, 8).contains("nothing listens"));
        assertTrue(ConnectionEvent.describeStatus(ConnectionEventType.REJECTED, 28).contains("rejected by the peer"));
        assertTrue(ConnectionEvent.describeStatus(ConnectionEventType.ADDR_ERROR, -110).contains("ETIMEDOUT"));
        ConnectionEvent rejected = new ConnectionEvent(8, 28, new byte[] {7, 8}, 0, 0, 0, null, 0, 0);
        ConnectionRejectedException exception = new ConnectionRejectedException("rdma_connect", "to 10.0.2.15:1", rejected,
                TransportType.IB);
        assertEquals(Errno.ECONNREFUSED, exception.errno());
        assertTrue(exception.rejectedByPeer());
        assertArrayEquals(new byte[] {7, 8}, exception.privateData());
        assertTrue(exception.getMessage().startsWith("rdma_connect to 10.0.2.15:1 failed: REJECTED, status 28"),
                exception.getMessage());
        ConnectionException timeout = new ConnectionException("rdma_resolve_addr", "to 198.18.255.254:7471",
                Errno.ETIMEDOUT, null, "no ADDR_RESOLVED within 1000 ms");
        assertTrue(timeout.getMessage().contains("198.18.255.254") && timeout.getMessage().contains("ETIMEDOUT"),
                timeout.getMessage());
    }

    @Test
    void socketAddressesRoundTripThroughSockaddr() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            InetSocketAddress v4 = new InetSocketAddress(InetAddress.getByName("10.0.2.15"), 7471);
            MemorySegment storage = SocketAddresses.write(arena, v4);
            assertEquals(SocketAddresses.AF_INET, storage.get(java.lang.foreign.ValueLayout.JAVA_SHORT, 0));
            assertEquals((byte) (7471 >> 8), storage.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 2), "network order");
            assertEquals(v4, SocketAddresses.read(storage));
            InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByName("fe80::1"), 1);
            assertEquals(v6.getPort(), SocketAddresses.read(SocketAddresses.write(arena, v6)).getPort());
            assertEquals("10.0.2.15:7471", SocketAddresses.format(v4));
        }
    }
}
