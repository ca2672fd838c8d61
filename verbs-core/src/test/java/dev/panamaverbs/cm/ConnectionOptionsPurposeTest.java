package dev.panamaverbs.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Private data is refused when the options are built, not at the call: a connect's 56 bytes, anyone's 196. */
class ConnectionOptionsPurposeTest {
    @Test
    void optionsForConnectingRefuseMoreThanAConnectCarries() {
        assertEquals(56, ConnectionOptions.builder().forConnecting().privateData(new byte[56]).build().privateData().length);
        assertEquals(56, ConnectionOptions.builder().privateData(new byte[56]).forConnecting().build().privateData().length);
        IllegalArgumentException setAfter = assertThrows(IllegalArgumentException.class,
                () -> ConnectionOptions.builder().forConnecting().privateData(new byte[57]));
        assertTrue(setAfter.getMessage().startsWith("rdma_connect: private data must be at most 56 bytes"),
                setAfter.getMessage());
        IllegalArgumentException setBefore = assertThrows(IllegalArgumentException.class,
                () -> ConnectionOptions.builder().privateData(new byte[57]).forConnecting());
        assertTrue(setBefore.getMessage().contains("got 57"), setBefore.getMessage());
    }

    @Test
    void anyOptionsRefuseMoreThanAnyCmMessageCarries() {
        assertEquals(196, ConnectionOptions.builder().privateData(new byte[196]).build().privateData().length);
        for (int length : new int[] {197, 255, 256, 4096}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ConnectionOptions.builder().privateData(new byte[length]).build(), "length " + length);
            assertTrue(e.getMessage().contains("at most 196 bytes"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> ConnectionOptions.defaults().withPrivateData(new byte[197]));
    }
}
