package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.Downcalls;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Whether the two panama-verbs modules that call restricted FFM methods may do so: the generated
 * layer ({@value #FFM}, which builds every downcall handle) and this one ({@value #LOADER}, which
 * opens libraries and sizes the pointers the provider hands out). Checked before the first
 * restricted call, so that a denied JVM gets a clear cause naming one option for both, instead of
 * the JDK's "restricted method" warning or error.
 *
 * <p>The API module ({@code dev.panamaverbs.core}) makes no restricted call and needs no access.
 * On the class path every jar is in the unnamed module, and the option is {@code ALL-UNNAMED}.
 */
final class NativeAccess {
    static final String FFM = "dev.panamaverbs.ffm";
    static final String LOADER = "dev.panamaverbs.loader";

    private NativeAccess() {}

    /** The generated layer's module, then this one; one entry when both are the unnamed module. */
    static List<Module> modules() {
        // No stream here: this runs in every cold probe, where a stream's lambdas cost their bootstrap.
        Module ffm = Downcalls.class.getModule();
        Module loader = NativeAccess.class.getModule();
        return ffm.equals(loader) ? List.of(ffm) : List.of(ffm, loader);
    }

    static boolean isEnabled() {
        for (Module module : modules()) {
            if (!module.isNativeAccessEnabled()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The exact command-line option that grants access to every module of {@link #modules()}:
     * {@code --enable-native-access=dev.panamaverbs.ffm,dev.panamaverbs.loader}, or
     * {@code --enable-native-access=ALL-UNNAMED} on the class path.
     */
    static String option() {
        return "--enable-native-access=" + modules().stream().map(NativeAccess::optionName)
                .distinct().collect(Collectors.joining(","));
    }

    private static String optionName(Module module) {
        return module.isNamed() ? module.getName() : "ALL-UNNAMED";
    }

    /** The unavailability cause when access is denied to any of {@link #modules()}. */
    static String deniedCause() {
        List<String> denied = modules().stream().filter(module -> !module.isNativeAccessEnabled())
                .map(module -> module.isNamed() ? "module " + module.getName() : "the class path (unnamed module)")
                .toList();
        return "native access is not enabled for " + String.join(" and ", denied)
                + "; start the JVM with " + option();
    }
}
