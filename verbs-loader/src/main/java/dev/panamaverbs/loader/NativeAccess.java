package dev.panamaverbs.loader;

/**
 * Whether this module may call restricted FFM methods. Checked before the first restricted call
 * so that a denied JVM gets a clear cause instead of the JDK's "restricted method" warning or
 * error.
 */
final class NativeAccess {
    private NativeAccess() {}

    static boolean isEnabled() {
        return NativeAccess.class.getModule().isNativeAccessEnabled();
    }

    /** The exact command-line option that grants access to this module (or to the class path). */
    static String option() {
        Module module = NativeAccess.class.getModule();
        return "--enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED");
    }

    /** The unavailability cause when access is denied. */
    static String deniedCause() {
        Module module = NativeAccess.class.getModule();
        String who = module.isNamed() ? "module " + module.getName() : "the class path (unnamed module)";
        return "native access is not enabled for " + who + "; start the JVM with " + option();
    }
}
