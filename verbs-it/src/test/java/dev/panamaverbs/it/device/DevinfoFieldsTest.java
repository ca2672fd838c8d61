package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The field reader VerbsInfoDeviceTest compares with, on a made-up ibv_devinfo excerpt. */
class DevinfoFieldsTest {
    private static final String TEXT = """
            hca_id:\trxe0
            \tmax_qp:\t\t\t\t1048560
            \tdevice_cap_flags:\t\t0x00000006
            \t\t\t\t\tBAD_PKEY_CNTR
            \t\t\t\t\tBAD_QKEY_CNTR
            \ttso_caps:
            \tsupported_qp:
            \trss_caps:
            \t\tsupported_qp:
            \t\t\t\t\tSUPPORT_UD
            \ttag matching not supported
            \t\tport:\t1
            \t\t\tactive_mtu:\t\t1024 (3)
            \t\t\tGID[  0]:\t\tfe80::1, RoCE v2
            \t\t\tGID[  0]:\t\tfe80::2, RoCE v2

            """;

    @Test
    void fieldsAreNamedByWhereTheyStand() {
        Map<String, String> fields = DevinfoFields.parse(TEXT);
        assertEquals("1048560", fields.get("rxe0/max_qp"));
        assertEquals("0x00000006 [BAD_PKEY_CNTR, BAD_QKEY_CNTR]", fields.get("rxe0/device_cap_flags"));
        assertEquals("", fields.get("rxe0/supported_qp"));
        assertEquals(" [SUPPORT_UD]", fields.get("rxe0/rss_caps/supported_qp"));
        assertEquals("", fields.get("rxe0/tag matching not supported"));
        assertEquals("1024 (3)", fields.get("rxe0/port 1/active_mtu"));
        assertEquals("fe80::2, RoCE v2", fields.get("rxe0/port 1/GID[  0]#2"));
    }

    @Test
    void mismatchesNameTheFieldAndBothValues() {
        Map<String, String> expected = DevinfoFields.parse(TEXT);
        Map<String, String> actual = DevinfoFields.parse(TEXT.replace("1024 (3)", "4096 (5)").replace("\tmax_qp:\t\t\t\t1048560\n", ""));
        assertEquals(List.of("rxe0/max_qp: ibv_devinfo '1048560', verbs-info (missing)",
                "rxe0/port 1/active_mtu: ibv_devinfo '1024 (3)', verbs-info '4096 (5)'"),
                DevinfoFields.mismatches(expected, actual));
    }
}
