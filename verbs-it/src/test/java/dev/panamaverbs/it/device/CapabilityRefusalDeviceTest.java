package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.RemoteEndpoint;
import java.util.EnumSet;

/**
 * The capability reporting under test (issue 26): where {@link DeviceCapability} says the device
 * lacks something, doing it anyway is refused with a {@link VerbsException} naming the C verb,
 * never a crash, a hang or a silent success. Where the device has it, the test is skipped with the
 * capability as the reason (the positive side is every other device test that uses it). On
 * soft-iWARP (siw, docs/siw.md) both tests run; on SoftRoCE (rxe) both are skipped.
 */
class CapabilityRefusalDeviceTest {

    /** iWARP has no UD: creating a UD queue pair is refused by ibv_create_qp. */
    @DeviceTest
    void withoutUdCreatingAUdQueuePairIsRefused(Context context) {
        assumeFalse(DeviceCapability.UD.isSupportedBy(context), "capability UD present: nothing refused to show");
        ProtectionDomain pd = context.allocateProtectionDomain();
        CompletionQueue cq = context.createCompletionQueue(16);
        VerbsException refused = assertThrows(VerbsException.class,
                () -> pd.createQueuePair(QueuePairOptions.builder(QueuePairType.UD, cq).build()));
        assertTrue(refused.getMessage().contains("ibv_create_qp"), "names the verb: " + refused.getMessage());
    }

    /**
     * Without a connection manager an iWARP RC queue pair cannot reach RTS: the transition is
     * refused by ibv_modify_qp (siw: EINVAL, it has no TCP stream to send on), and the queue pair
     * stays usable for close.
     */
    @DeviceTest
    void withoutConnectingWithoutCmTheRtsTransitionIsRefused(Context context, TestDevice device) {
        assumeFalse(DeviceCapability.CONNECT_WITHOUT_CM.isSupportedBy(context),
                "capability CONNECT_WITHOUT_CM present: nothing refused to show");
        ProtectionDomain pd = context.allocateProtectionDomain();
        CompletionQueue cq = context.createCompletionQueue(16);
        QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
        GidEntry gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
        VerbsException refused = assertThrows(VerbsException.class, () -> {
            qp.toInit(device.port(), 0, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            qp.toRtr(RemoteEndpoint.global(qp.number(), 1, gid.gid(), gid.index(),
                    context.queryPort(device.port()).activeMtu()));
            qp.toRts(1);
        });
        assertTrue(refused.getMessage().contains("ibv_modify_qp"), "names the verb: " + refused.getMessage());
        qp.close();
    }
}
