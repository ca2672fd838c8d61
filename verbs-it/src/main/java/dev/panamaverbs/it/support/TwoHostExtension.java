package dev.panamaverbs.it.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * JUnit 5 support for two-host tests (through {@link TwoHostTest}, or {@code @ExtendWith} on a
 * class):
 * <ul>
 *   <li>enables them on host A of the two-VM harness only; elsewhere they are skipped with a
 *       reason starting {@value TwoHostTest#SKIP_PREFIX};</li>
 *   <li>resolves {@link TwoHosts} parameters (of tests and lifecycle methods); the peers started
 *       through one are killed, if still running, when its test (or class, for
 *       {@code @BeforeAll}) ends;</li>
 *   <li>adds the output of every peer of a failing test (or lifecycle method) to its failure,
 *       as a suppressed exception, after killing the peers that the failing test (or method)
 *       started itself. A peer started in {@code @BeforeAll} is shared by the class's tests: one
 *       test's failure attaches its output so far but leaves it serving the next tests. A skip
 *       ({@link TestAbortedException}: an assumption, a missing {@code DeviceCapability}) is
 *       neither: it touches no peer.</li>
 * </ul>
 */
public class TwoHostExtension implements ExecutionCondition, ParameterResolver, TestExecutionExceptionHandler,
        LifecycleMethodExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TwoHostExtension.class);

    /** Created by JUnit for {@code @ExtendWith(TwoHostExtension.class)} and {@link TwoHostTest}. */
    public TwoHostExtension() {}

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        context.getTestClass().ifPresent(TwoHostExtension::checkName);
        Optional<TwoHostEnvironment> environment = TwoHostEnvironment.fromSystem();
        if (environment.isEmpty()) {
            return ConditionEvaluationResult.disabled(TwoHostTest.SKIP_PREFIX + "not in the two-VM harness ("
                    + TwoHostEnvironment.DIR_ENV + " is unset): ./verbs test runs two-host tests on host A of two rxe VMs");
        }
        if (!environment.get().isHostA()) {
            return ConditionEvaluationResult.disabled(TwoHostTest.SKIP_PREFIX + "this is host " + environment.get().host()
                    + "; two-host tests run on host A");
        }
        return ConditionEvaluationResult.enabled("two hosts: " + environment.get().localAddress().getHostAddress() + " <-> "
                + environment.get().peerAddress().getHostAddress());
    }

    private static void checkName(Class<?> testClass) {
        if (!testClass.getSimpleName().endsWith(TwoHostTest.CLASS_SUFFIX)) {
            throw new ExtensionConfigurationException("two-host test class " + testClass.getName() + " must be named *"
                    + TwoHostTest.CLASS_SUFFIX + ": ./verbs test's summary counts two-host tests by that name");
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TwoHosts.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TwoHostEnvironment environment = TwoHostEnvironment.fromSystem().orElseThrow(
                () -> new ExtensionConfigurationException("TwoHosts outside the two-VM harness"));
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(TwoHosts.class, key -> new Closing(new TwoHosts(environment)),
                Closing.class).hosts();
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        throw withPeerOutput(context, throwable);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        throw withPeerOutput(context, throwable);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        throw withPeerOutput(context, throwable);
    }

    /**
     * The peers {@code context} started itself and those its parents started, for
     * {@link #withPeerOutput(Throwable, List, List)}; each once.
     */
    private static Throwable withPeerOutput(ExtensionContext context, Throwable throwable) {
        List<Peer> own = new ArrayList<>();
        List<Peer> shared = new ArrayList<>();
        Set<Closing> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Optional<ExtensionContext> current = Optional.of(context); current.isPresent(); current = current.get().getParent()) {
            Closing closing = closing(current.get());
            if (closing == null || !seen.add(closing)) {
                continue;
            }
            // A store answers from its parents too: the hosts are this context's own only when its parent's differ.
            boolean ownedHere = current.get() == context && closing != current.get().getParent().map(TwoHostExtension::closing).orElse(null);
            (ownedHere ? own : shared).addAll(closing.hosts().peers());
        }
        return withPeerOutput(throwable, own, shared);
    }

    /**
     * Unless {@code thrown} is a skip: kills {@code own} (the failing test's peers) and adds the
     * output of {@code own} and {@code shared} (the class's peers, left running) to it, each unless
     * its message has it already.
     */
    static Throwable withPeerOutput(Throwable thrown, List<Peer> own, List<Peer> shared) {
        if (thrown instanceof TestAbortedException) {
            return thrown; // the class's peers serve its next tests (issue 26: a skip on siw killed RdmaCmTwoHostTest's)
        }
        own.forEach(Peer::kill);
        for (List<Peer> peers : List.of(own, shared)) {
            for (Peer peer : peers) {
                String section = peer.outputSection();
                if (!String.valueOf(thrown.getMessage()).contains(section)) {
                    thrown.addSuppressed(new PeerOutput(section.strip()));
                }
            }
        }
        return thrown;
    }

    private static Closing closing(ExtensionContext context) {
        return context.getStore(NAMESPACE).get(TwoHosts.class, Closing.class);
    }

    /** A peer's output attached to a failure. */
    static final class PeerOutput extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PeerOutput(String output) {
            super(output, null, false, false);
        }
    }

    /** Closes the hosts (kills running peers) when the store that holds them is closed. */
    private record Closing(TwoHosts hosts) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            hosts.close();
        }
    }
}
