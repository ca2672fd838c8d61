package dev.panamaverbs.testkit;

import dev.panamaverbs.Context;
import dev.panamaverbs.values.PortAttributes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The harness self-check (issue 5): a device test that always fails. {@code ./verbs test} runs it
 * in a second launcher run right after the real device tests (same VM boot, its own reports
 * directory) and goes red unless that run exits 1 with exactly this failure in its report, and
 * unless that exit status reaches the host through the VM. So a harness that stops noticing a
 * failing device test cannot stay green.
 *
 * <p>Tagged {@value #TAG}, not {@code device}: neither Surefire (see {@code surefire.excludedGroups})
 * nor the real device run picks it up, and it never counts in the device totals. It runs like a
 * {@link DeviceTest} (same extension: device choice, injected {@link Context}) and touches the
 * device before failing, so its failure travels the same road as a real one.
 */
@Tag(HarnessCanaryTest.TAG)
@ExtendWith(RdmaDeviceExtension.class)
class HarnessCanaryTest {
    /** The JUnit tag the canary run selects (scripts/device-run.sh). */
    static final String TAG = "harness-canary";
    /** Starts the failure message; HarnessSelfCheck (harness module) looks for it in the canary's report. */
    static final String MARKER = "harness canary: deliberate failure";

    @Test
    void failsOnTheDeviceOnPurpose(TestDevice device, Context context) {
        PortAttributes port = context.queryPort(device.port());
        assertTrue(port.port() == device.port(), "queried port " + port.port());
        // The deliberate failure. Turn it into a pass and ./verbs test must go red.
        fail(MARKER + " after querying " + device.name() + " port " + device.port() + " (" + port.state() + ")");
    }
}
