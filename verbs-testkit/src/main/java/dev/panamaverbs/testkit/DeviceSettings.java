package dev.panamaverbs.testkit;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * How a run asks for its device: each setting from a JUnit configuration parameter (launcher
 * parameters, system properties, {@code junit-platform.properties}), else a system property, else an
 * environment variable, else its default. Blank values count as unset.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>property</th><th>environment</th><th>default</th></tr>
 *   <tr><td>{@value #DEVICE_PROPERTY}</td><td>{@value #DEVICE_ENV}</td><td>the first device listed</td></tr>
 *   <tr><td>{@value #PORT_PROPERTY}</td><td>{@value #PORT_ENV}</td><td>1</td></tr>
 *   <tr><td>{@value #GID_INDEX_PROPERTY}</td><td>{@value #GID_INDEX_ENV}</td><td>the RoCE v2 IPv4 GID by type, else 0</td></tr>
 *   <tr><td>{@value #REQUIRE_DEVICE_PROPERTY}</td><td>{@value #REQUIRE_DEVICE_ENV}</td><td>false: skip without a device</td></tr>
 * </table>
 *
 * @param device      the requested device name, if any
 * @param deviceFrom  where the name came from (the property or variable), for skip reasons
 * @param port        the port number
 * @param gidIndex    the requested GID index, if any
 */
public record DeviceSettings(Optional<String> device, String deviceFrom, int port, OptionalInt gidIndex) {
    /** Configuration parameter / system property naming the device. */
    public static final String DEVICE_PROPERTY = "panamaverbs.test.device";
    /** Environment variable naming the device. */
    public static final String DEVICE_ENV = "VERBS_TEST_DEVICE";
    /** Configuration parameter / system property: the port. */
    public static final String PORT_PROPERTY = "panamaverbs.test.port";
    /** Environment variable: the port. */
    public static final String PORT_ENV = "VERBS_TEST_PORT";
    /** Configuration parameter / system property: the GID index. */
    public static final String GID_INDEX_PROPERTY = "panamaverbs.test.gidIndex";
    /** Environment variable: the GID index. */
    public static final String GID_INDEX_ENV = "VERBS_TEST_GID_INDEX";
    /** Configuration parameter / system property: fail device tests instead of skipping them. */
    public static final String REQUIRE_DEVICE_PROPERTY = "panamaverbs.test.requireDevice";
    /** Environment variable: the same as {@link #REQUIRE_DEVICE_PROPERTY}. */
    public static final String REQUIRE_DEVICE_ENV = "VERBS_TEST_REQUIRE_DEVICE";

    /**
     * The settings of this JVM: system properties, then the environment.
     *
     * @return the settings of this JVM: system properties, then the environment
     */
    public static DeviceSettings fromSystem() {
        return read(System::getProperty, System::getenv);
    }

    /**
     * The settings of a JUnit run: each key as a JUnit configuration parameter (which JUnit looks
     * up in the launcher's parameters, then system properties, then
     * {@code junit-platform.properties}), else a system property, else the environment.
     *
     * @param configuration a JUnit configuration parameter lookup, e.g.
     *        {@code ExtensionContext::getConfigurationParameter}
     * @return the settings of the run
     */
    public static DeviceSettings fromConfiguration(Function<String, Optional<String>> configuration) {
        return read(key -> configuration.apply(key).orElseGet(() -> System.getProperty(key)), System::getenv);
    }

    /**
     * Whether device tests must fail rather than skip when no device can be used:
     * {@value #REQUIRE_DEVICE_PROPERTY} (configuration parameter or system property) or
     * {@value #REQUIRE_DEVICE_ENV} set to {@code true}. For CI: a run that skipped every device test
     * cannot go green.
     *
     * @param configuration a JUnit configuration parameter lookup
     * @param environment the environment variables
     * @return true when a missing device fails the tests
     */
    public static boolean requireDevice(Function<String, Optional<String>> configuration, UnaryOperator<String> environment) {
        String value = configuration.apply(REQUIRE_DEVICE_PROPERTY).orElseGet(() -> System.getProperty(REQUIRE_DEVICE_PROPERTY));
        if (value == null || value.isBlank()) {
            value = environment.apply(REQUIRE_DEVICE_ENV);
        }
        return value != null && Boolean.parseBoolean(value.strip());
    }

    /**
     * The settings found through the given lookups (null or blank = unset).
     *
     * @throws IllegalArgumentException when a port or GID index is not a number in range
     * @param properties the system properties
     * @param environment the environment variables
     * @return the settings found through the given lookups (null or blank = unset)
     */
    public static DeviceSettings read(UnaryOperator<String> properties, UnaryOperator<String> environment) {
        Optional<Found> device = find(properties, DEVICE_PROPERTY, environment, DEVICE_ENV);
        int port = find(properties, PORT_PROPERTY, environment, PORT_ENV)
                .map(found -> found.number(1, 255)).orElse(1);
        OptionalInt gidIndex = find(properties, GID_INDEX_PROPERTY, environment, GID_INDEX_ENV)
                .map(found -> OptionalInt.of(found.number(0, Integer.MAX_VALUE))).orElse(OptionalInt.empty());
        return new DeviceSettings(device.map(Found::value), device.map(Found::from).orElse("default"),
                port, gidIndex);
    }


    private static Optional<Found> find(UnaryOperator<String> properties, String property,
                                        UnaryOperator<String> environment, String variable) {
        String value = properties.apply(property);
        if (value != null && !value.isBlank()) {
            return Optional.of(new Found(value.strip(), "system property " + property));
        }
        value = environment.apply(variable);
        if (value != null && !value.isBlank()) {
            return Optional.of(new Found(value.strip(), "environment variable " + variable));
        }
        return Optional.empty();
    }

    private record Found(String value, String from) {
        int number(int min, int max) {
            int n;
            try {
                n = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(from + " must be a number, was '" + value + "'", e);
            }
            if (n < min || n > max) {
                throw new IllegalArgumentException(from + " must be in " + min + ".." + max + ", was " + n);
            }
            return n;
        }
    }
}
