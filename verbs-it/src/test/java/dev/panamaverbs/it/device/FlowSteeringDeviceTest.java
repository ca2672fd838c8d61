package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.KernelResources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.FlowRule;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GlobalRoute;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;

/**
 * Flow steering, raw packet queue pairs and counters on rxe (issue 10 item 2): SoftRoCE has none
 * of them. The kernel refuses to create a RAW_PACKET queue pair (the transport flows usually
 * steer to), so {@code ibv_create_flow} is tried on a UD queue pair; it and
 * {@code ibv_create_counters} reach libibverbs' stand-in ops, which answer EOPNOTSUPP; the queue
 * pair closes and the kernel frees it.
 */
class FlowSteeringDeviceTest {

    private static void assertRefused(String verb, Executable call) {
        Refusals.assertRefused("FlowSteeringDeviceTest", verb, call);
    }

    @DeviceTest
    void rawPacketQueuePairsAreRefusedByRxe(Context context, TestDevice device) {
        Map<String, Integer> before = KernelResources.countIfAvailable(device.name());
        try (ProtectionDomain pd = context.allocateProtectionDomain()) {
            CompletionQueue cq = context.createCompletionQueue(16);
            QueuePairOptions options = QueuePairOptions.builder(QueuePairType.RAW_PACKET, cq)
                    .maxSendWorkRequests(4).maxReceiveWorkRequests(4).build();
            VerbsException e = assertThrows(VerbsException.class, () -> pd.createQueuePair(options));
            assertEquals("ibv_create_qp", e.verb(), e.getMessage());
            assertTrue(e.errno() > 0, e.getMessage());
            System.out.println("# FlowSteeringDeviceTest: RAW_PACKET: " + e.getMessage());
            cq.close();
        }
        if (!before.isEmpty()) {
            assertEquals(before.get("qp"), KernelResources.count(device.name()).get("qp"), "no QP left behind");
        }
    }

    @DeviceTest
    void flowsAndCountersAreRefusedByRxe(Context context, TestDevice device) {
        assertRefused("ibv_create_counters", context::createCounters);
        Map<String, Integer> before = KernelResources.countIfAvailable(device.name());
        try (ProtectionDomain pd = context.allocateProtectionDomain()) {
            CompletionQueue cq = context.createCompletionQueue(16);
            QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.UD, cq)
                    .maxSendWorkRequests(4).maxReceiveWorkRequests(4).build());
            // ibv_flow_label_to_udp_sport: the RoCE v2 source port of flow label 0x12345.
            int sourcePort = GlobalRoute.to(Gid.parse("::1"), 0).withFlowLabel(0x12345).udpSourcePort();
            assertEquals(0xE341, sourcePort);
            FlowRule rule = FlowRule.builder(device.port()).udp(4791, sourcePort).build();
            assertRefused("ibv_create_flow", () -> qp.createFlow(rule));
            qp.close();
            cq.close();
        }
        if (!before.isEmpty()) {
            assertEquals(before.get("qp"), KernelResources.count(device.name()).get("qp"), "QP freed");
        }
    }
}
