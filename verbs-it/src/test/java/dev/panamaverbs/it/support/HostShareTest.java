package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The split of the one-host tests between the two VMs ({@link HostShare}): the balance, and the
 * filter over a tree Jupiter discovered (fixture classes tagged engine-fixture, never run).
 */
class HostShareTest {
    private static final String LONG = LongDeviceFixture.class.getName();
    private static final String MIDDLE = MiddleDeviceFixture.class.getName();
    private static final String SHORT = ShortDeviceFixture.class.getName();
    private static final Map<String, Double> SECONDS = Map.of(LONG, 100.0, MIDDLE, 50.0, SHORT, 10.0);

    @Tag(TwoHostSupportTest.FIXTURE_TAG)
    static class LongDeviceFixture {
        @Test
        @Tag("device")
        void one() {}

        @Test
        @Tag("device")
        void two() {}
    }

    @Tag(TwoHostSupportTest.FIXTURE_TAG)
    static class MiddleDeviceFixture {
        @Test
        @Tag("device")
        void one() {}
    }

    /** A parameterized test: a test template, which has no tests until it runs. */
    @Tag(TwoHostSupportTest.FIXTURE_TAG)
    static class ShortDeviceFixture {
        @ParameterizedTest
        @ValueSource(ints = {1, 2})
        @Tag("device")
        void each(int value) {}
    }

    /** A two-host class: always host A's. */
    @Tag(TwoHostSupportTest.FIXTURE_TAG)
    static class FixtureTwoHostTest {
        @Test
        @Tag("device")
        @Tag("two-host")
        void one() {}
    }

    /** No device test: outside the split, so host A's (the device run's tag filter drops it anyway). */
    @Tag(TwoHostSupportTest.FIXTURE_TAG)
    static class UnitFixture {
        @Test
        void one() {}
    }

    @Test
    void longestFirstToTheHostWithLessToDoHostBStartingLater() {
        // LONG (100) to A (0 <= B's head start 40); MIDDLE (50) to B (100 > 40): B 90; SHORT (10) to B (100 > 90).
        assertEquals(Map.of(LONG, "a", MIDDLE, "b", SHORT, "b"), HostShare.split(SECONDS));
        assertEquals(40.0, HostShare.HOST_B_EXTRA_SECONDS);
    }

    @Test
    void equalTimesAreSplitByNameAndTiesGoToHostA() {
        Map<String, Double> even = Map.of("p.A", 50.0, "p.B", 50.0, "p.C", 50.0, "p.D", 50.0);
        // A 0 -> p.A; B 40 < A 50 -> p.B (B 90); A 50 -> p.C (A 100); B 90 -> p.D.
        assertEquals(Map.of("p.A", "a", "p.B", "b", "p.C", "a", "p.D", "b"), HostShare.split(even));
    }

    @Test
    void theFullRunsKnownClassesSplitRoughlyEvenly() {
        Map<String, String> split = HostShare.split(HostShare.SECONDS);
        double a = split.entrySet().stream().filter(e -> e.getValue().equals("a")).mapToDouble(e -> HostShare.SECONDS.get(e.getKey())).sum();
        double b = split.entrySet().stream().filter(e -> e.getValue().equals("b")).mapToDouble(e -> HostShare.SECONDS.get(e.getKey())).sum();
        // The two longest classes (the fuzz and the allocation test) on different hosts, the rest evening it out.
        assertEquals("a", split.get("dev.panamaverbs.it.fuzz.MisuseFuzzDeviceTest"));
        assertEquals("b", split.get("dev.panamaverbs.it.device.DataPathAllocationDeviceTest"));
        assertEquals(a, b + HostShare.HOST_B_EXTRA_SECONDS, 60.0, () -> "A " + a + " s, B " + b + " s: " + split);
    }

    @Test
    void everyClassTheSecondsTableNamesIsADeviceTestClassOfThisModule() throws Exception {
        assertFalse(HostShare.SECONDS.isEmpty());
        for (Map.Entry<String, Double> entry : HostShare.SECONDS.entrySet()) {
            Class<?> named = Class.forName(entry.getKey());
            assertTrue(named.getSimpleName().endsWith("DeviceTest"), named::getName);
            assertTrue(entry.getValue() > HostShare.DEFAULT_SECONDS, entry::toString);
        }
    }

    @Test
    void hostBKeepsOnlyItsShareOfTheOneHostClasses() {
        assertEquals(Set.of(MIDDLE, SHORT), classesKept(new HostShare("b", null, SECONDS)));
    }

    @Test
    void hostAKeepsItsShareTheTwoHostClassesAndWhatIsOutsideTheSplitAndWritesTheSplit(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("host-share");
        assertEquals(Set.of(LONG, FixtureTwoHostTest.class.getName(), UnitFixture.class.getName()),
                classesKept(new HostShare("a", file.toString(), SECONDS)));
        assertEquals(List.of("a " + LONG, "b " + MIDDLE, "b " + SHORT), Files.readAllLines(file));
    }

    @Test
    void withoutAHostEverythingIsKept() {
        assertEquals(Set.of(LONG, MIDDLE, SHORT, FixtureTwoHostTest.class.getName(), UnitFixture.class.getName()),
                classesKept(new HostShare(null, null, SECONDS)));
    }

    @Test
    void aHostOtherThanAOrBIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new HostShare("c", null, SECONDS));
    }

    /** The classes of the test methods (tests and test templates) Jupiter's discovery keeps with {@code filter}. */
    private static Set<String> classesKept(HostShare filter) {
        TestPlan plan = LauncherFactory.create().discover(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(LongDeviceFixture.class), selectClass(MiddleDeviceFixture.class),
                        selectClass(ShortDeviceFixture.class), selectClass(FixtureTwoHostTest.class), selectClass(UnitFixture.class))
                .filters(filter).build());
        Set<String> classes = new TreeSet<>();
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier test : plan.getDescendants(root)) {
                if (test.getSource().orElse(null) instanceof MethodSource method) {
                    classes.add(method.getClassName());
                }
            }
        }
        return classes;
    }
}
