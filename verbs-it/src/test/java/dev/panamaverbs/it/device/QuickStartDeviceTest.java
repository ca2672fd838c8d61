package dev.panamaverbs.it.device;

import dev.panamaverbs.Context;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.LocalPeerProcess;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Assumptions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's quick start must run on a real device: this runs the examples' {@code QuickStart},
 * whose code is the README's line for line ({@code ReadmeQuickStartTest}), as its own JVM, the
 * way {@code ./verbs demo --quick-start} does. The example checks the 64 written bytes itself and
 * exits 1 when they did not arrive.
 */
class QuickStartDeviceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(180);

    @DeviceTest
    void theReadmeQuickStartRuns(TestDevice device) throws InterruptedException {
        Assumptions.assumeTrue(Verbs.devices().getFirst().name().equals(device.name()), "quick start uses the first device");
        try (Context context = DeviceScope.openContext(device)) {
            DeviceCapability.CONNECT_WITHOUT_CM.require(context); // its queue pair connects to itself by ibv_modify_qp
        }
        LocalPeerProcess quickStart = LocalPeerProcess.start("quick start",
                InteropPeers.java(InteropPeers.QUICK_START, List.of()), () -> false);
        OptionalInt exit = quickStart.awaitExit(TIMEOUT);
        assertTrue(exit.isPresent(), () -> "the quick start did not end within " + TIMEOUT + "\n" + quickStart.describe());
        assertEquals(0, exit.getAsInt(), quickStart::describe);
        assertTrue(quickStart.output().contains("quick start on " + device.name()
                + ": RDMA WRITE of 64 bytes arrived at offset 2048"), quickStart::describe);
    }
}
