package dev.panamaverbs.testkit;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsUnsupportedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.TestAbortedException;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The extension's JUnit wiring end to end: small fixture classes, each using an
 * {@link RdmaDeviceExtension} over a fake {@link DeviceInventory}, run through the Jupiter engine
 * with {@link EngineTestKit}, and what JUnit reports (skipped, aborted, failed, succeeded, with
 * which message) is checked.
 *
 * <p>The fixtures are tagged {@value #FIXTURE_TAG}: Surefire excludes that tag
 * ({@code surefire.excludedGroups}) and the device run includes only {@code device} and
 * {@code harness-canary}, so they run only when selected here. They register their extension
 * with {@code @ExtendWith} on the method, as {@link DeviceTest} does (or on the class), through
 * subclasses that pass a fake inventory to the package-private constructor. The device choice is
 * kept per engine run, so each fixture class runs in its own.
 */
class RdmaDeviceExtensionEngineTest {
    static final String FIXTURE_TAG = "engine-fixture";

    /** The settings of every fixture but {@link Injection}: nothing asked for. */
    static final DeviceSettings DEFAULTS = new DeviceSettings(Optional.empty(), "default", 1, OptionalInt.empty());

    static DeviceInventory inventory(Optional<String> cause, List<String> names, OptionalInt roceGid) {
        return new FakeInventory(cause, () -> names, roceGid);
    }

    static final DeviceInventory NO_DEVICE = inventory(Optional.empty(), List.of(), OptionalInt.empty());
    static final String LOADER_CAUSE = "libibverbs.so.1: cannot open shared object file: No such file or directory";
    static final DeviceInventory NO_LIBRARY = inventory(Optional.of(LOADER_CAUSE), List.of(), OptionalInt.empty());
    static final DeviceInventory RXE = inventory(Optional.empty(), List.of("rxe0"), OptionalInt.of(1));
    static final DeviceInventory TWO_DEVICES = inventory(Optional.empty(), List.of("mlx5_0", "rxe0"), OptionalInt.of(3));
    static final DeviceSettings RXE0_PORT_2 = new DeviceSettings(Optional.of("rxe0"),
            "system property " + DeviceSettings.DEVICE_PROPERTY, 2, OptionalInt.empty());

    static final class NoDeviceExtension extends RdmaDeviceExtension {
        NoDeviceExtension() {
            super(NO_DEVICE, DEFAULTS, quiet -> { }); // the notice is NoticedExtension's to check
        }
    }

    static final class NoLibraryExtension extends RdmaDeviceExtension {
        NoLibraryExtension() {
            super(NO_LIBRARY, DEFAULTS, quiet -> { });
        }
    }

    static final class RxeExtension extends RdmaDeviceExtension {
        RxeExtension() {
            super(RXE, DEFAULTS);
        }
    }

    static final class TwoDevicesExtension extends RdmaDeviceExtension {
        TwoDevicesExtension() {
            super(TWO_DEVICES, RXE0_PORT_2);
        }
    }

    /** The skip notices {@link NoticedExtension} printed (one fixture run at a time). */
    static final List<String> NOTICES = new java.util.concurrent.CopyOnWriteArrayList<>();

    static final class NoticedExtension extends RdmaDeviceExtension {
        NoticedExtension() {
            super(NO_DEVICE, DEFAULTS, NOTICES::add);
        }
    }

    // ---- fixtures (run only through EngineTestKit) ----

    @Tag(FIXTURE_TAG)
    static class TwoSkippedTests {
        @Test
        @ExtendWith(NoticedExtension.class)
        void first(TestDevice device) {
            throw new AssertionError("ran without a device: " + device);
        }

        @Test
        @ExtendWith(NoticedExtension.class)
        void second(TestDevice device) {
            throw new AssertionError("ran without a device: " + device);
        }
    }

    @Tag(FIXTURE_TAG)
    static class NoDevice {
        @Test
        @ExtendWith(NoDeviceExtension.class)
        void needsADevice(TestDevice device) {
            throw new AssertionError("ran without a device: " + device);
        }
    }

    @Tag(FIXTURE_TAG)
    static class NoLibrary {
        @Test
        @ExtendWith(NoLibraryExtension.class)
        void needsTheLibrary(TestDevice device) {
            throw new AssertionError("ran without libibverbs: " + device);
        }
    }

    @Tag(FIXTURE_TAG)
    @ExtendWith(NoDeviceExtension.class)
    static class NoDeviceOnTheClass {
        @Test
        void needsADevice(TestDevice device) {
            throw new AssertionError("ran without a device: " + device);
        }
    }

    @Tag(FIXTURE_TAG)
    static class Unsupported {
        @Test
        @ExtendWith(RxeExtension.class)
        void throwsUnsupported() {
            throw new VerbsUnsupportedException("ibv_alloc_dm", 95);
        }
    }

    @Tag(FIXTURE_TAG)
    static class UnsupportedInBeforeEach {
        @BeforeEach
        void setUp() {
            throw new VerbsUnsupportedException("ibv_create_srq", 95);
        }

        @Test
        @ExtendWith(RxeExtension.class)
        void neverRuns() {
            throw new AssertionError("ran after a failing @BeforeEach");
        }
    }

    @Tag(FIXTURE_TAG)
    @ExtendWith(RxeExtension.class)
    static class UnsupportedInBeforeAll {
        @BeforeAll
        static void setUpAll() {
            throw new VerbsUnsupportedException("ibv_alloc_mw", 95);
        }

        @Test
        void neverRuns() {
            throw new AssertionError("ran after a failing @BeforeAll");
        }
    }

    @Tag(FIXTURE_TAG)
    static class UnsupportedInAfterEach {
        @AfterEach
        void tearDown() {
            throw new VerbsUnsupportedException("ibv_dealloc_mw", 95);
        }

        @Test
        @ExtendWith(RxeExtension.class)
        void passes() {
        }
    }

    static final AssertionError BODY_FAILURE = new AssertionError("the body failed");

    @Tag(FIXTURE_TAG)
    static class UnsupportedInAfterEachAfterAFailure {
        @AfterEach
        void tearDown() {
            throw new VerbsUnsupportedException("ibv_dealloc_mw", 95);
        }

        @Test
        @ExtendWith(RxeExtension.class)
        void fails() {
            throw BODY_FAILURE;
        }
    }

    @Tag(FIXTURE_TAG)
    @ExtendWith(RxeExtension.class)
    static class UnsupportedInAfterAll {
        @AfterAll
        static void tearDownAll() {
            throw new VerbsUnsupportedException("ibv_destroy_srq", 95);
        }

        @Test
        void passes() {
        }
    }

    static final VerbsException VERB_FAILURE = new VerbsException("ibv_create_qp", 22);
    static final AssertionError ASSERTION_FAILURE = new AssertionError("wrong value");

    @Tag(FIXTURE_TAG)
    static class OtherFailures {
        @Test
        @ExtendWith(RxeExtension.class)
        void verbFails() {
            throw VERB_FAILURE;
        }

        @Test
        @ExtendWith(RxeExtension.class)
        void assertionFails() {
            throw ASSERTION_FAILURE;
        }
    }

    static final AtomicReference<TestDevice> INJECTED = new AtomicReference<>();

    @Tag(FIXTURE_TAG)
    static class Injection {
        @Test
        @ExtendWith(TwoDevicesExtension.class)
        void getsTheDevice(TestDevice device) {
            INJECTED.set(device);
        }
    }

    @Tag(FIXTURE_TAG)
    static class DefaultInjection {
        @Test
        @ExtendWith(RxeExtension.class)
        void getsTheDevice(TestDevice device) {
            INJECTED.set(device);
        }
    }

    // ---- the tests ----

    private static EngineExecutionResults run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute();
    }

    private static Event only(Events events) {
        assertEquals(1, events.count(), () -> "expected exactly one event, got " + events.list());
        return events.list().getFirst();
    }

    private static Throwable thrown(Event finished) {
        return finished.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    }

    /** The run had exactly these outcomes among its tests (started, skipped, succeeded, aborted, failed). */
    private static void assertTests(Events tests, long skipped, long succeeded, long aborted, long failed) {
        assertEquals(List.of(skipped, succeeded, aborted, failed),
                List.of(tests.skipped().count(), tests.succeeded().count(), tests.aborted().count(), tests.failed().count()),
                () -> "skipped, succeeded, aborted, failed of " + tests.list());
    }

    @Test
    void noDeviceSkipsTheTestWithTheChoicesReason() {
        Events tests = run(NoDevice.class).testEvents();
        assertTests(tests, 1, 0, 0, 0);
        String expected = ((DeviceChoice.Skip) DeviceChoice.decide(NO_DEVICE, DEFAULTS)).reason();
        assertEquals("no RDMA device: libibverbs lists none" + DeviceChoice.HOW_TO_GET_ONE, expected);
        assertEquals(expected + RdmaDeviceExtension.FAIL_INSTEAD, only(tests.skipped()).getRequiredPayload(String.class));
    }

    @Test
    void theSkipReasonIsPrintedOncePerRun() {
        NOTICES.clear();
        EngineExecutionResults results = run(TwoSkippedTests.class);
        String reason = ((DeviceChoice.Skip) DeviceChoice.decide(NO_DEVICE, DEFAULTS)).reason() + RdmaDeviceExtension.FAIL_INSTEAD;
        assertEquals(List.of("verbs-testkit: device tests are skipped: " + reason), NOTICES);
        assertTests(results.testEvents(), 2, 0, 0, 0);
    }

    @Test
    void unavailableLibrarySkipsWithTheLoadersCause() {
        Events tests = run(NoLibrary.class).testEvents();
        assertTests(tests, 1, 0, 0, 0);
        assertEquals("libibverbs is unavailable: " + LOADER_CAUSE + RdmaDeviceExtension.FAIL_INSTEAD,
                only(tests.skipped()).getRequiredPayload(String.class));
    }

    @Test
    void onTheClassTheWholeClassIsSkipped() {
        EngineExecutionResults results = run(NoDeviceOnTheClass.class);
        assertTests(results.testEvents(), 0, 0, 0, 0);
        assertEquals(0, results.testEvents().started().count());
        Event skipped = only(results.containerEvents().skipped());
        assertEquals("RdmaDeviceExtensionEngineTest$NoDeviceOnTheClass", skipped.getTestDescriptor().getDisplayName());
        assertEquals(((DeviceChoice.Skip) DeviceChoice.decide(NO_DEVICE, DEFAULTS)).reason() + RdmaDeviceExtension.FAIL_INSTEAD,
                skipped.getRequiredPayload(String.class));
    }

    /** What an unsupported verb on the fake rxe0 becomes: a TestAbortedException naming the verb and the device. */
    private static TestAbortedException assertAbortedAsUnsupported(String verb, Event event) {
        TestAbortedException aborted = assertInstanceOf(TestAbortedException.class, thrown(event));
        assertEquals(verb + " is not supported on rxe0: " + verb + " is not supported: errno 95"
                + " (EOPNOTSUPP: Operation not supported)", aborted.getMessage());
        return aborted;
    }

    /** {@code fixture}'s one test ran and was aborted by an unsupported {@code verb}. */
    private static TestAbortedException assertTheTestAbortedAsUnsupported(Class<?> fixture, String verb) {
        Events tests = run(fixture).testEvents();
        assertTests(tests, 0, 0, 1, 0);
        return assertAbortedAsUnsupported(verb, only(tests.aborted()));
    }

    @Test
    void unsupportedVerbAbortsNamingTheVerbAndDevice() {
        TestAbortedException aborted = assertTheTestAbortedAsUnsupported(Unsupported.class, "ibv_alloc_dm");
        assertInstanceOf(VerbsUnsupportedException.class, aborted.getCause());
    }

    @Test
    void unsupportedVerbInBeforeEachAbortsToo() {
        assertTheTestAbortedAsUnsupported(UnsupportedInBeforeEach.class, "ibv_create_srq");
    }

    @Test
    void unsupportedVerbInBeforeAllAbortsTheClass() {
        EngineExecutionResults results = run(UnsupportedInBeforeAll.class);
        assertEquals(0, results.testEvents().started().count());
        assertAbortedAsUnsupported("ibv_alloc_mw", only(results.containerEvents().aborted()));
    }

    @Test
    void unsupportedVerbInAfterEachAbortsAPassedTest() {
        assertTheTestAbortedAsUnsupported(UnsupportedInAfterEach.class, "ibv_dealloc_mw");
    }

    @Test
    void unsupportedVerbInAfterEachLeavesAFailedTestFailed() {
        Events tests = run(UnsupportedInAfterEachAfterAFailure.class).testEvents();
        assertTests(tests, 0, 0, 0, 1);
        Throwable failure = thrown(only(tests.failed()));
        assertSame(BODY_FAILURE, failure);
        assertInstanceOf(TestAbortedException.class, failure.getSuppressed()[failure.getSuppressed().length - 1]);
    }

    @Test
    void unsupportedVerbInAfterAllAbortsTheClass() {
        EngineExecutionResults results = run(UnsupportedInAfterAll.class);
        assertTests(results.testEvents(), 0, 1, 0, 0);
        assertAbortedAsUnsupported("ibv_destroy_srq", only(results.containerEvents().aborted()));
    }

    @Test
    void otherExceptionsFailTheTestUnchanged() {
        Events tests = run(OtherFailures.class).testEvents();
        assertTests(tests, 0, 0, 0, 2);
        List<Throwable> failures = tests.failed().stream().map(RdmaDeviceExtensionEngineTest::thrown).toList();
        assertEquals(2, failures.size());
        assertSame(VERB_FAILURE, failures.stream().filter(t -> t instanceof VerbsException).findFirst().orElseThrow());
        assertSame(ASSERTION_FAILURE, failures.stream().filter(t -> t instanceof AssertionError).findFirst().orElseThrow());
    }

    @Test
    void injectsTheChosenDevicePortAndGidIndex() {
        INJECTED.set(null);
        assertTests(run(Injection.class).testEvents(), 0, 1, 0, 0);
        // Named device (not the first listed), the port asked for, the RoCE v2 IPv4 GID by type.
        assertEquals(new TestDevice("rxe0", 2, 3), INJECTED.get());

        INJECTED.set(null);
        assertTests(run(DefaultInjection.class).testEvents(), 0, 1, 0, 0);
        assertEquals(new TestDevice("rxe0", 1, 1), INJECTED.get());
    }
}
