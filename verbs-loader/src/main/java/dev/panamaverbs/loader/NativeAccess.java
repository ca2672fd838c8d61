package dev.panamaverbs.loader;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Whether the panama-verbs modules that call restricted FFM methods may do so. Checked before the
 * first restricted call so that a denied JVM gets a clear cause, with one option naming every
 * such module, instead of the JDK's "restricted method" warning or error.
 *
 * <p>Two modules make restricted calls ({@code reinterpret}, {@code downcallHandle}...): this
 * one, {@value #LOADER}, and {@value #CORE} when it is present, found in this module's layer (or
 * its parents). verbs-ffm only holds layouts and descriptors and needs no access. On the class
 * path every jar is in the unnamed module, and the option is {@code ALL-UNNAMED}.
 */
final class NativeAccess {
    static final String LOADER = "dev.panamaverbs.loader";
    static final String CORE = "dev.panamaverbs.core";

    private NativeAccess() {}

    /**
     * The modules that need native access: this module, then verbs-core if it is in this
     * module's layer (or, for a module outside any layer, in the boot layer). On the class path:
     * just the unnamed module, which stands for every class-path jar.
     */
    static List<Module> modules() {
        Module loader = NativeAccess.class.getModule();
        List<Module> modules = new ArrayList<>();
        modules.add(loader);
        if (loader.isNamed()) {
            ModuleLayer layer = loader.getLayer() != null ? loader.getLayer() : ModuleLayer.boot();
            layer.findModule(CORE).ifPresent(modules::add);
        }
        return List.copyOf(modules);
    }

    static boolean isEnabled() {
        return modules().stream().allMatch(Module::isNativeAccessEnabled);
    }

    /**
     * The exact command-line option that grants access to every module of {@link #modules()}:
     * {@code --enable-native-access=dev.panamaverbs.loader,dev.panamaverbs.core}, or
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
