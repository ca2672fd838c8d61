package dev.panamaverbs.testkit;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * {@code panamaverbs.test.requireDevice=true}, given as a JUnit configuration parameter (what
 * {@code junit-platform.properties} or a launcher passes): without a device the device test fails
 * instead of being skipped, and the failure carries the skip's reason.
 */
class RequireDeviceEngineTest {

    private static Events run(boolean requireDevice) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter(DeviceSettings.REQUIRE_DEVICE_PROPERTY, Boolean.toString(requireDevice))
                .selectors(selectClass(RdmaDeviceExtensionEngineTest.NoDevice.class)).execute().testEvents();
    }

    @Test
    void withoutTheSwitchNoDeviceSkips() {
        Events tests = run(false);
        assertEquals(1, tests.skipped().count(), () -> tests.list().toString());
        assertEquals(0, tests.failed().count());
    }

    @Test
    void withTheSwitchNoDeviceFailsWithTheReason() {
        Events tests = run(true);
        assertEquals(0, tests.skipped().count(), () -> tests.list().toString());
        assertEquals(1, tests.failed().count(), () -> tests.list().toString());
        String message = tests.failed().list().getFirst()
                .getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class).getThrowable().orElseThrow().getMessage();
        assertTrue(message.contains("panamaverbs.test.requireDevice=true") && message.contains("no RDMA device: libibverbs lists none"),
                message);
        assertFalse(message.contains("to fail instead of skipping"), "the switch is set already: " + message);
    }
}
