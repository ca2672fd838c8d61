package dev.panamaverbs;

import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.values.QueuePairType;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code ibv_is_qpt_supported} as PacketPacing.paces: bit {@code qp_type} of {@code supported_qpts}. */
class PacketPacingTest {
    @Test
    void pacesTheTypesWhoseBitIsSet() {
        var pacing = new ExtendedDeviceAttributes.PacketPacing(1, 100, (1 << QueuePairType.UD.value()) | (1 << QueuePairType.RAW_PACKET.value()));
        assertTrue(pacing.paces(QueuePairType.UD));
        assertTrue(pacing.paces(QueuePairType.RAW_PACKET));
        assertFalse(pacing.paces(QueuePairType.RC));
        assertFalse(pacing.paces(QueuePairType.DRIVER), "IBV_QPT_DRIVER (0xff) is beyond the 32 bits");
    }
}
