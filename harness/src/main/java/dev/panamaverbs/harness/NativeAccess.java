package dev.panamaverbs.harness;

import java.util.List;

/**
 * The native-access options wherever ./verbs runs our code outside Maven (the device tests, the
 * examples). The one place that list is kept: the two modules that call restricted FFM methods,
 * the generated layer (it builds the downcall handles) and the loader, which is exactly what a
 * user of the library grants; every other restricted call, the API's or a test's, is denied so
 * that it fails instead of printing a warning. (Surefire's lists are per module, in each pom.)
 */
final class NativeAccess {
    /** The library modules that call restricted methods; what a user of the library grants. */
    static final List<String> LIBRARY = List.of("dev.panamaverbs.ffm", "dev.panamaverbs.loader");

    private NativeAccess() {}

    /** The java options for the examples and the device tests alike. */
    static List<String> options() {
        return List.of("--enable-native-access=" + String.join(",", LIBRARY), "--illegal-native-access=deny");
    }
}
