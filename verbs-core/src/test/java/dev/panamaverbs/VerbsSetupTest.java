package dev.panamaverbs;

import dev.panamaverbs.internal.BuildInfo;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Verbs.firstDevice() says what is missing; Verbs.version() always answers. No device needed. */
class VerbsSetupTest {

    @Test
    void firstDeviceNamesWhatIsMissing() {
        if (!Verbs.isAvailable()) {
            VerbsUnavailableException thrown = assertThrows(VerbsUnavailableException.class, Verbs::firstDevice);
            assertTrue(thrown.getMessage().startsWith("libibverbs is not available: "), thrown.getMessage());
        } else if (Verbs.devices().isEmpty()) {
            VerbsSetupException thrown = assertThrows(VerbsSetupException.class, Verbs::firstDevice);
            assertTrue(thrown.getMessage().startsWith("no RDMA device"), thrown.getMessage());
        } else {
            assertTrue(Verbs.firstDevice().name().equals(Verbs.devices().getFirst().name()));
        }
    }

    @Test
    void noDeviceMessageSaysHowDevicesAppear() {
        String message = VerbsSetupException.noDevice().getMessage();
        assertTrue(message.contains("rdma link add rxe0 type rxe netdev"), message);
        assertTrue(message.contains("/sys/class/infiniband"), message);
    }

    @Test
    void versionAlwaysAnswers() {
        String version = Verbs.version();
        assertFalse(version.isBlank());
        // Surefire runs core from target/classes: no manifest there, so the fallback.
        assertTrue(version.equals(BuildInfo.UNKNOWN) || version.matches("\\d+\\.\\d+\\.\\d+.*"), version);
    }
}
