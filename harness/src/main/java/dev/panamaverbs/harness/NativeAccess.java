package dev.panamaverbs.harness;

import java.util.List;
import java.util.stream.Stream;

/**
 * The modules granted native access wherever ./verbs runs our code outside Maven (the device
 * tests, the examples). The one place that list is kept: it follows which modules call
 * restricted FFM methods. (Surefire's lists are per module, in each module's pom.)
 */
final class NativeAccess {
    /** The library modules that call restricted methods; what a user of the library grants. */
    static final List<String> LIBRARY = List.of("dev.panamaverbs.loader", "dev.panamaverbs.core");

    /** Modules whose test classes, patched in, call restricted methods in the device tests. */
    static final List<String> TESTS = List.of("dev.panamaverbs.testkit");

    private NativeAccess() {}

    /** The java option for the library alone (the examples). */
    static String forLibrary() {
        return option(LIBRARY);
    }

    /** The java option for the device tests: the library and the test modules. */
    static String forDeviceTests() {
        return option(Stream.concat(LIBRARY.stream(), TESTS.stream()).toList());
    }

    private static String option(List<String> modules) {
        return "--enable-native-access=" + String.join(",", modules);
    }
}
