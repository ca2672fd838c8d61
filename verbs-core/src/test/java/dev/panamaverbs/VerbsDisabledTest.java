package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.RdmaCm;
import dev.panamaverbs.cm.RdmaConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A probe-then-fall-back caller on a host where libibverbs is unavailable (here: disabled with
 * {@code -Dpanamaverbs.disable=true}, in a fork of its own, see the pom): nothing that only asks
 * throws, and what needs the library throws {@link VerbsUnavailableException} with the cause.
 */
class VerbsDisabledTest {
    @BeforeAll
    static void onlyInTheDisabledFork() {
        // -Dtest=... on the command line also selects this class in the ordinary fork
        assumeTrue(Boolean.getBoolean("panamaverbs.disable"), "runs in the libraries-disabled fork");
    }

    @Test
    void theCauseSaysDisabledNotNativeAccess() {
        assertFalse(Verbs.isAvailable());
        String cause = Verbs.unavailabilityCause().orElseThrow();
        assertTrue(cause.startsWith("disabled by -Dpanamaverbs.disable=true"), cause);
    }

    @Test
    void listingAnswersEmptyInsteadOfThrowing() {
        assertEquals(java.util.List.of(), Verbs.devices());
        assertTrue(Verbs.device("rxe0").isEmpty());
        assertTrue(Verbs.capabilities().isEmpty());
        VerbsUnavailableException first = assertThrows(VerbsUnavailableException.class, Verbs::firstDevice);
        assertTrue(first.getMessage().endsWith(Verbs.unavailabilityCause().orElseThrow()), first.getMessage());
    }

    @Test
    void rdmaCmGivesLibibverbsCauseAndConnectThrowsIt() {
        assertFalse(RdmaCm.isAvailable());
        assertEquals(Verbs.unavailabilityCause(), RdmaCm.unavailabilityCause());
        assertInstanceOf(VerbsUnavailableException.class, RdmaCm.unavailabilityException().orElseThrow());
        assertThrows(VerbsUnavailableException.class, RdmaCm::ensureAvailable);
        assertThrows(VerbsUnavailableException.class, () -> RdmaConnection.connect(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 18515), ConnectionOptions.defaults()));
    }
}
