package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.testkit.UdPair;

/** UD datagrams through an address handle on one device, verified byte for byte. */
class UdDataPathTest {

    /**
     * Fills the first buffer's first {@code length} bytes with {@code pattern}, posts a receive
     * ({@code receiveWrId}) with room for the GRH and those bytes, and sends them as one signaled
     * datagram ({@code sendWrId}) from the first queue pair to the second.
     */
    private static void sendPatternDatagram(UdPair pair, int pattern, int length, long sendWrId, long receiveWrId) {
        pair.firstBuffer().fillPattern(pattern, 0, length);
        pair.second().postReceive(ReceiveWorkRequest.allocate(1).wrId(receiveWrId)
                .sge(0, pair.secondBuffer().region(), 0, UdPair.GRH_BYTES + length));
        pair.first().postSend(SendWorkRequest.allocate(1).wrId(sendWrId).signaled(true)
                .sge(pair.firstBuffer().region(), 0, length)
                .ud(pair.addressHandle(), pair.second().number(), UdPair.QKEY));
    }

    @DeviceTest
    void datagramArrivesAfterTheGrhWithTheSendersQpn(TestDevice device) {
        try (UdPair pair = UdPair.open(device)) {
            Completions wc = pair.completions();
            sendPatternDatagram(pair, 9, 512, 9, 90);
            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(9, wc.wrId(0));
            assertEquals(CompletionOpcode.SEND, wc.opcode(0));
            CompletionWaiter.awaitSuccess(pair.secondQueue(), wc);
            assertEquals(90, wc.wrId(0));
            assertEquals(CompletionOpcode.RECV, wc.opcode(0));
            assertEquals(UdPair.GRH_BYTES + 512, wc.byteLength(0));
            assertEquals(pair.first().number(), wc.sourceQp(0));
            pair.secondBuffer().assertPattern(9, UdPair.GRH_BYTES, 512);
        }
    }

    @DeviceTest
    void aPairOnTheInjectedContextSendsADatagramAndLeavesTheContextOpen(Context context, TestDevice device) {
        UdPair pair = UdPair.open(context, device);
        try (pair) {
            assertSame(context, pair.context());
            sendPatternDatagram(pair, 8, 128, 8, 80);
            CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
            CompletionWaiter.awaitSuccess(pair.secondQueue(), pair.completions());
            assertEquals(80, pair.completions().wrId(0));
            pair.secondBuffer().assertPattern(8, UdPair.GRH_BYTES, 128);
        }
        assertTrue(pair.addressHandle().isClosed(), "the pair's address handle is closed");
        assertTrue(pair.first().isClosed() && pair.firstQueue().isClosed() && pair.protectionDomain().isClosed(),
                "the pair's queue pairs, queues and protection domain are closed");
        assertFalse(context.isClosed(), "the injected context stays open for its owner");
    }

    @DeviceTest
    void udRequestsAreCheckedAtPost(TestDevice device) {
        try (UdPair pair = UdPair.open(device)) {
            SendWorkRequest noDestination = SendWorkRequest.allocate(1).sge(pair.firstBuffer().region(), 0, 8);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pair.first().postSend(noDestination));
            assertTrue(e.getMessage().contains("ud("), e.getMessage());
            SendWorkRequest write = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE)
                    .sge(pair.firstBuffer().region(), 0, 8).ud(pair.addressHandle(), pair.second().number(), UdPair.QKEY);
            assertThrows(IllegalArgumentException.class, () -> pair.first().postSend(write));
            assertThrows(IllegalArgumentException.class, () -> SendWorkRequest.allocate(1)
                    .ud(pair.addressHandle(), 1 << 24, UdPair.QKEY));

            // An address handle of another protection domain, or of another context, is refused
            // before the post (the provider would accept it and fail the send with LOC_QP_OP_ERR).
            AddressHandle otherDomain = pair.context().allocateProtectionDomain()
                    .createAddressHandle(pair.addressHandle().attributes());
            IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class, () -> pair.first().postSend(
                    SendWorkRequest.allocate(1).wrId(41).sge(pair.firstBuffer().region(), 0, 8)
                            .ud(otherDomain, pair.second().number(), UdPair.QKEY)));
            assertTrue(foreign.getMessage().startsWith("ibv_post_send: wr_id=41: " + otherDomain + " belongs to "),
                    foreign.getMessage());
            try (Context other = Verbs.device(device.name()).orElseThrow().open()) {
                AddressHandle otherContext = other.allocateProtectionDomain()
                        .createAddressHandle(pair.addressHandle().attributes());
                assertThrows(IllegalArgumentException.class, () -> pair.first().postSend(
                        SendWorkRequest.allocate(1).wrId(42).sge(pair.firstBuffer().region(), 0, 8)
                                .ud(otherContext, pair.second().number(), UdPair.QKEY)));
            }
            Completions none = Completions.allocate(4);
            assertEquals(0, pair.firstQueue().poll(none), "the refused sends never reached the provider");

            SendWorkRequest send = SendWorkRequest.allocate(1).sge(pair.firstBuffer().region(), 0, 8)
                    .ud(pair.addressHandle(), pair.second().number(), UdPair.QKEY);
            pair.addressHandle().close();
            IllegalStateException closed = assertThrows(IllegalStateException.class, () -> pair.first().postSend(send));
            assertTrue(closed.getMessage().contains("AddressHandle"), closed.getMessage());
        }
    }
}
