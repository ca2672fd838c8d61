package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.util.OptionalInt;

/**
 * The three optional lookups behind {@code Capability.GET_DEVICE_INDEX}, {@code GET_PKEY_INDEX}
 * and {@code QUERY_QP_DATA_IN_ORDER} on the device: {@code ibv_get_device_index},
 * {@code ibv_get_pkey_index} and {@code ibv_query_qp_data_in_order}.
 */
class LookupVerbsDeviceTest {

    /** {@code ibv_get_device_index}: the kernel reports an index, the same on every call. */
    @DeviceTest
    void theKernelIndexesTheDevice(TestDevice testDevice) {
        Device device = Verbs.device(testDevice.name()).orElseThrow();
        OptionalInt index = device.kernelIndex();
        System.out.println("# LookupVerbsDeviceTest: " + device.name() + " kernel index " + index);
        assertTrue(index.isPresent(), "the VM's kernel answers the netlink device query");
        assertTrue(index.getAsInt() >= 0, index.toString());
        assertEquals(index, device.kernelIndex());
    }

    /** {@code ibv_get_pkey_index}: entry 0's P_Key is found at 0; a key the table lacks is empty. */
    @DeviceTest
    void thePkeyOfEntryZeroIsAtIndexZero(Context context, TestDevice device) {
        DeviceCapability.PARTITION_KEYS.require(context);
        int pkey = context.queryPkey(device.port(), 0);
        assertEquals(OptionalInt.of(0), context.pkeyIndex(device.port(), pkey), String.format("0x%04x", pkey));
        int absent = pkey ^ 0x1234;
        assertFalse(context.pkeyIndex(device.port(), absent).isPresent(), String.format("0x%04x", absent));
    }

    /** {@code ibv_query_qp_data_in_order}: answers for an RC queue pair, without failing. */
    @DeviceTest
    void theQueuePairAnswersWhetherDataLandsInOrder(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            QueuePair qp = pair.first();
            for (WorkRequestOpcode opcode : new WorkRequestOpcode[] {WorkRequestOpcode.RDMA_WRITE, WorkRequestOpcode.SEND}) {
                System.out.println("# LookupVerbsDeviceTest: " + device.name() + " " + opcode + " data in order: "
                        + qp.dataInOrder(opcode));
            }
        }
    }
}
