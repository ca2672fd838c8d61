package dev.panamaverbs.testkit;

import dev.panamaverbs.Context;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsUnsupportedException;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * JUnit 5 support for device tests (used through {@link DeviceTest}, or {@code @ExtendWith} on a
 * class):
 * <ul>
 *   <li>decides once per run which device to use ({@link DeviceChoice}) and disables the tests,
 *       with the exact reason, when there is none; the reason is also printed once per run on
 *       standard error, since build tools show a disabled test's reason only in their reports;
 *       with {@value DeviceSettings#REQUIRE_DEVICE_PROPERTY}{@code =true} the tests fail with it
 *       instead;</li>
 *   <li>resolves {@link TestDevice} parameters, and {@link Context} parameters: the chosen
 *       device opened for that test (or lifecycle method) and closed after it, with everything
 *       the test created from it;</li>
 *   <li>turns a {@link VerbsUnsupportedException} (thrown by the test or a lifecycle method:
 *       {@code @BeforeAll}, {@code @BeforeEach}, {@code @AfterEach}, {@code @AfterAll}) into an
 *       aborted (skipped) test that names the verb. From clean-up this is deliberate: a test whose
 *       body passed but whose {@code @AfterEach} met an unsupported verb is reported aborted,
 *       with the reason, not failed (and an unsupported verb in {@code @AfterAll} aborts the
 *       class container). A test that already failed stays failed: JUnit keeps the first
 *       exception and adds the later abort as suppressed.</li>
 * </ul>
 */
public class RdmaDeviceExtension implements ExecutionCondition, ParameterResolver,
        TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RdmaDeviceExtension.class);

    /** What a skip reason ends with, unless {@code requireDevice} turns the skip into a failure. */
    static final String FAIL_INSTEAD = "; set " + DeviceSettings.REQUIRE_DEVICE_PROPERTY
            + "=true to fail instead of skipping";

    private final DeviceInventory inventory;
    private final DeviceSettings settings;
    private final Consumer<String> notice;

    /** The extension for this machine and this JVM's settings (what {@link DeviceTest} uses). */
    public RdmaDeviceExtension() {
        this(DeviceInventory.system(), null);
    }

    /** An extension over a given inventory and settings (null: read them when first needed). */
    RdmaDeviceExtension(DeviceInventory inventory, DeviceSettings settings) {
        this(inventory, settings, System.err::println);
    }

    /** As above, printing the once-per-run skip notice to {@code notice}. */
    RdmaDeviceExtension(DeviceInventory inventory, DeviceSettings settings, Consumer<String> notice) {
        this.inventory = inventory;
        this.settings = settings;
        this.notice = notice;
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return switch (choice(context)) {
            case DeviceChoice.Use use -> ConditionEvaluationResult.enabled("RDMA device " + use.device());
            case DeviceChoice.Skip skip -> {
                if (DeviceSettings.requireDevice(context::getConfigurationParameter, System::getenv)) {
                    throw new ExtensionConfigurationException("a device test cannot run and "
                            + DeviceSettings.REQUIRE_DEVICE_PROPERTY + "=true makes that a failure: " + skip.reason());
                }
                String reason = skip.reason() + FAIL_INSTEAD;
                announceSkip(context, reason);
                yield ConditionEvaluationResult.disabled(reason);
            }
        };
    }

    /**
     * Says once per run, on the notice stream (standard error), why device tests skip: Surefire
     * and Gradle print a disabled test's reason only in their reports, and a run that skipped
     * everything should say so where the person reads.
     */
    private void announceSkip(ExtensionContext context, String reason) {
        context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(SkipAnnounced.class, key -> {
            notice.accept("verbs-testkit: device tests are skipped: " + reason);
            return new SkipAnnounced();
        }, SkipAnnounced.class);
    }

    /** Root-store marker: the skip reason was printed in this run. */
    private record SkipAnnounced() {}

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == TestDevice.class || type == Context.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TestDevice device = switch (choice(context)) {
            case DeviceChoice.Use use -> use.device();
            case DeviceChoice.Skip skip -> throw new ParameterResolutionException(
                    "no " + parameter.getParameter().getType().getSimpleName() + " to inject: " + skip.reason());
        };
        if (parameter.getParameter().getType() == TestDevice.class) {
            return device;
        }
        return openFor(context, parameter, device);
    }

    /** Opens the device; the context's store closes it when the test (or lifecycle method) ends. */
    private static Context openFor(ExtensionContext context, ParameterContext parameter, TestDevice device) {
        Context opened = Verbs.device(device.name())
                .orElseThrow(() -> new ParameterResolutionException("RDMA device " + device.name() + " vanished"))
                .open();
        context.getStore(NAMESPACE).put(new OpenedContextKey(parameter.getIndex()),
                (ExtensionContext.Store.CloseableResource) opened::close);
        return opened;
    }

    /** Store key of a Context opened for one parameter of one test. */
    private record OpenedContextKey(int parameterIndex) {}

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw asSkipIfUnsupported(deviceName(context), thrown);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw asSkipIfUnsupported(deviceName(context), thrown);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw asSkipIfUnsupported(deviceName(context), thrown);
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw asSkipIfUnsupported(deviceName(context), thrown);
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw asSkipIfUnsupported(deviceName(context), thrown);
    }

    /** {@code thrown} itself, or a {@link TestAbortedException} when it (or a cause) says "unsupported". */
    static Throwable asSkipIfUnsupported(String deviceName, Throwable thrown) {
        return unsupportedIn(thrown)
                .<Throwable>map(unsupported -> new TestAbortedException(skipReason(deviceName, unsupported), thrown))
                .orElse(thrown);
    }

    /** The skip message for an unsupported verb: names the verb and the device. */
    static String skipReason(String deviceName, VerbsUnsupportedException unsupported) {
        return unsupported.verb() + " is not supported on " + deviceName + ": " + unsupported.getMessage();
    }

    private static Optional<VerbsUnsupportedException> unsupportedIn(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof VerbsUnsupportedException unsupported) {
                return Optional.of(unsupported);
            }
        }
        return Optional.empty();
    }

    private static String deviceName(ExtensionContext context) {
        Object choice = context.getRoot().getStore(NAMESPACE).get(DeviceChoice.class);
        return choice instanceof DeviceChoice.Use use ? use.device().name() : "this device";
    }

    /** The run's decision, made once and kept in the root store. */
    private DeviceChoice choice(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(DeviceChoice.class, key -> decide(context), DeviceChoice.class);
    }

    private DeviceChoice decide(ExtensionContext context) {
        DeviceSettings effective;
        try {
            effective = settings != null ? settings : DeviceSettings.fromConfiguration(context::getConfigurationParameter);
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException("device test settings: " + e.getMessage(), e);
        }
        return DeviceChoice.decide(inventory, effective);
    }
}
