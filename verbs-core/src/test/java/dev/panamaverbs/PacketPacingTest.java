package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code ibv_is_qpt_supported} as PacketPacing.paces: bit {@code qp_type} of {@code supported_qpts}. */
class PacketPacingTest {
    @Test
    void pacesTheTypesWhoseBitIsSet() {
        var pacing = new ExtendedDeviceAttributes.PacketPacing(1, 100, (1 << QpType.UD.value()) | (1 << QpType.RAW_PACKET.value()));
        assertTrue(pacing.paces(QpType.UD));
        assertTrue(pacing.paces(QpType.RAW_PACKET));
        assertFalse(pacing.paces(QpType.RC));
        assertFalse(pacing.paces(QpType.DRIVER), "IBV_QPT_DRIVER (0xff) is beyond the 32 bits");
    }
}
