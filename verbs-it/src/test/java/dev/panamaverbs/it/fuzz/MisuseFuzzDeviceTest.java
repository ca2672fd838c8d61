package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.it.support.KernelResources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RdmaDeviceExtension;
import dev.panamaverbs.testkit.TestDevice;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 14 item 5, the misuse fuzz: each category of {@link FuzzCategory} runs in a child JVM of
 * its own ({@link FuzzChild}), with a seed printed here ({@code -Dpanamaverbs.fuzzSeed=N} repeats
 * a run). A category passes when its child exits by itself within the bound, without a JVM crash,
 * with every case ended clean or with an exception the case expects, at least the category's
 * least number of cases, no kernel object left before its own exit, and the kernel's counts back
 * at this JVM's baseline after it. The totals are printed at the end. A part of a category that
 * needs what the device lacks is skipped in the child, naming the capability; the parts that ran
 * are judged as above, and the category then ends as a skip with those reasons.
 */
class MisuseFuzzDeviceTest {
    private static final long SEED = Long.getLong("panamaverbs.fuzzSeed", System.nanoTime());
    private static final Map<String, Long> CASES = new ConcurrentSkipListMap<>();

    /** One test a category, in {@link FuzzCategory}'s order, named by the category. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(FuzzCategory.class)
    @Tag(DeviceTest.TAG)
    @ExtendWith(RdmaDeviceExtension.class)
    void category(FuzzCategory category, TestDevice device) throws Exception {
        fuzz(category, device);
    }

    private static void fuzz(FuzzCategory category, TestDevice device) throws Exception {
        assumeTrue(KernelResources.toolAvailable(), "iproute2's rdma tool is not installed");
        long seed = SEED + category.ordinal();
        System.out.println("misuse fuzz " + category.label + ": seed " + seed);
        Map<String, Integer> before = KernelResources.count(device.name());
        FuzzReport report = FuzzChild.run(category, device, seed);
        assertEquals(before, KernelResources.count(device.name()), category.label + ": kernel objects left after the child exited");
        if (!report.skips().isEmpty()) {
            abort(category.label + ": " + report.cases() + " cases ran clean or refused, then skipped: "
                    + String.join("; ", new LinkedHashSet<>(report.skips())));
        }
        assertTrue(report.cases() >= category.minCases, category.label + ": only " + report.cases() + " cases, at least "
                + category.minCases + " expected");
        CASES.put(category.label, report.cases());
        System.out.println("misuse fuzz " + category.label + ": " + report.cases() + " cases " + report.outcomes()
                + ", no crash, no hang, no leak");
    }

    @AfterAll
    static void totals() {
        long total = CASES.values().stream().mapToLong(Long::longValue).sum();
        System.out.println("misuse fuzz: " + total + " cases in " + CASES.size() + " of " + FuzzCategory.values().length
                + " categories passed (base seed " + SEED + "): " + CASES);
    }
}
