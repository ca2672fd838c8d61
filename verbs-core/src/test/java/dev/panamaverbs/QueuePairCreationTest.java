package dev.panamaverbs;

import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.QueuePairCapabilities;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.panamaverbs.ffm.ibv_device_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * Queue pair sizes are checked against the device's {@code max_qp_wr} / {@code max_sge} before
 * {@code ibv_create_qp}: driven here with attributes decoded from memory filled as a provider would.
 */
class QueuePairCreationTest {
    private static final int MAX_QP_WR = 1024;
    private static final int MAX_SGE = 4;

    private static DeviceAttributes device(int maxQpWr, int maxSge) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_device_attr.LAYOUT);
            ibv_device_attr.max_qp_wr(attr, maxQpWr);
            ibv_device_attr.max_sge(attr, maxSge);
            ibv_device_attr.phys_port_cnt(attr, (byte) 1);
            return DeviceAttributes.read(attr, null);
        }
    }

    private static void check(DeviceAttributes device, int sendWr, int recvWr, int sendSge, int recvSge) {
        QueuePairCreation.checkCapabilities("ibv_create_qp",
                new QueuePairCapabilities(sendWr, recvWr, sendSge, recvSge, 0), device);
    }

    private static void assertRejected(String message, DeviceAttributes device, int sendWr, int recvWr, int sendSge,
                                       int recvSge) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> check(device, sendWr, recvWr, sendSge, recvSge));
        assertEquals(message, e.getMessage());
    }

    @Test
    void sizesUpToTheDeviceMaximaPass() {
        DeviceAttributes device = device(MAX_QP_WR, MAX_SGE);
        assertDoesNotThrow(() -> check(device, 1, 1, 1, 1));
        assertDoesNotThrow(() -> check(device, MAX_QP_WR, MAX_QP_WR, MAX_SGE, MAX_SGE));
        assertDoesNotThrow(() -> check(device, 0, 0, 0, 0), "0 receive sizes, as with an SRQ");
    }

    @Test
    void eachSizeOneOverItsMaximumIsRejectedNamingFieldAndLimit() {
        DeviceAttributes device = device(MAX_QP_WR, MAX_SGE);
        assertRejected("ibv_create_qp: max_send_wr must be at most 1024 (device max_qp_wr), got 1025",
                device, MAX_QP_WR + 1, 1, 1, 1);
        assertRejected("ibv_create_qp: max_recv_wr must be at most 1024 (device max_qp_wr), got 1025",
                device, 1, MAX_QP_WR + 1, 1, 1);
        assertRejected("ibv_create_qp: max_send_sge must be at most 4 (device max_sge), got 5",
                device, 1, 1, MAX_SGE + 1, 1);
        assertRejected("ibv_create_qp: max_recv_sge must be at most 4 (device max_sge), got 5",
                device, 1, 1, 1, MAX_SGE + 1);
    }

    @Test
    void theVerbNameIsTheOneGiven() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QueuePairCreation.checkCapabilities(
                "ibv_create_qp_ex", new QueuePairCapabilities(1, 1, 2, 1, 0), device(16, 1)));
        assertEquals("ibv_create_qp_ex: max_send_sge must be at most 1 (device max_sge), got 2", e.getMessage());
    }

    @Test
    void limitsAreComparedUnsigned() {
        // A provider reporting max_qp_wr >= 2^31 (read back as a negative int) allows every Java size.
        DeviceAttributes huge = device(0x8000_0000, 0xffff_ffff);
        assertDoesNotThrow(() -> check(huge, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE));
        // A device with no work requests at all (max_qp_wr 0) rejects the first.
        assertRejected("ibv_create_qp: max_send_wr must be at most 0 (device max_qp_wr), got 1", device(0, 1), 1, 0, 1, 0);
    }
}
