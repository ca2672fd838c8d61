package dev.panamaverbs.testkit;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.UnaryOperator;

/**
 * How a run asks for its device: each setting from a system property, else an environment
 * variable, else its default. Blank values count as unset.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>property</th><th>environment</th><th>default</th></tr>
 *   <tr><td>{@value #DEVICE_PROPERTY}</td><td>{@value #DEVICE_ENV}</td><td>the first device listed</td></tr>
 *   <tr><td>{@value #PORT_PROPERTY}</td><td>{@value #PORT_ENV}</td><td>1</td></tr>
 *   <tr><td>{@value #GID_INDEX_PROPERTY}</td><td>{@value #GID_INDEX_ENV}</td><td>1 on rxe devices, else 0</td></tr>
 * </table>
 *
 * @param device      the requested device name, if any
 * @param deviceFrom  where the name came from (the property or variable), for skip reasons
 * @param port        the port number
 * @param gidIndex    the requested GID index, if any
 */
public record DeviceSettings(Optional<String> device, String deviceFrom, int port, OptionalInt gidIndex) {
    public static final String DEVICE_PROPERTY = "panamaverbs.test.device";
    public static final String DEVICE_ENV = "VERBS_TEST_DEVICE";
    public static final String PORT_PROPERTY = "panamaverbs.test.port";
    public static final String PORT_ENV = "VERBS_TEST_PORT";
    public static final String GID_INDEX_PROPERTY = "panamaverbs.test.gidIndex";
    public static final String GID_INDEX_ENV = "VERBS_TEST_GID_INDEX";

    /**
     * The settings of this JVM: system properties, then the environment.
     *
     * @return the settings of this JVM: system properties, then the environment
     */
    public static DeviceSettings fromSystem() {
        return read(System::getProperty, System::getenv);
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
