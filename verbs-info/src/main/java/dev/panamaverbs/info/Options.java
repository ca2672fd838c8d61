package dev.panamaverbs.info;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * verbs-info's command line, spelled like {@code ibv_devinfo}'s where they overlap.
 *
 * @param json    {@code --json}: the JSON document instead of text
 * @param device  {@code -d DEV} / {@code --ib-dev=DEV}: only that device
 * @param verbose {@code -v} / {@code --verbose}: every attribute, as {@code ibv_devinfo -v}
 * @param help    {@code -h} / {@code --help}
 * @param counters {@code -c} / {@code --counters}: each port's counters (sysfs counters and hw_counters)
 */
record Options(boolean json, Optional<String> device, boolean verbose, boolean help, boolean counters) {
    static final String USAGE = """
            usage: verbs-info [--json] [-d DEV] [-v] [-c]
              -d, --ib-dev=DEV   only device DEV (default: every device)
              -v, --verbose      every attribute, as ibv_devinfo -v prints them
              -c, --counters     each port's counters too (sysfs counters/ and hw_counters/)
                  --json         the same (always every attribute) as one JSON document
              -h, --help         this text
            Run with native access: java --enable-native-access=ALL-UNNAMED -jar verbs-info.jar
            """;

    Options {
        Objects.requireNonNull(device, "device");
    }

    /** Parses the arguments; an unknown or incomplete one is an {@link IllegalArgumentException}. */
    static Options parse(List<String> args) {
        boolean json = false;
        boolean verbose = false;
        boolean help = false;
        boolean counters = false;
        String device = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--json" -> json = true;
                case "-v", "--verbose" -> verbose = true;
                case "-h", "--help" -> help = true;
                case "-c", "--counters" -> counters = true;
                case "-d", "--ib-dev" -> {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException(arg + " needs a device name");
                    }
                    device = args.get(++i);
                }
                default -> {
                    if (arg.startsWith("--ib-dev=")) {
                        device = arg.substring("--ib-dev=".length());
                    } else if (arg.startsWith("-d") && arg.length() > 2) {
                        device = arg.substring(2);
                    } else {
                        throw new IllegalArgumentException("unknown argument: " + arg);
                    }
                }
            }
        }
        if (device != null && device.isEmpty()) {
            throw new IllegalArgumentException("empty device name");
        }
        return new Options(json, Optional.ofNullable(device), verbose, help, counters);
    }
}
