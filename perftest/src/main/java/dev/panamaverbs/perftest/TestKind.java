package dev.panamaverbs.perftest;

import java.util.Arrays;
import java.util.Locale;

/**
 * The perftest tests, by their name without {@code ib_} ({@code write_lat} is {@code ib_write_lat}):
 * the verb each measures and whether it measures latency or bandwidth.
 */
public enum TestKind {
    WRITE_LAT, SEND_LAT, READ_LAT, ATOMIC_LAT, WRITE_BW, SEND_BW, READ_BW, ATOMIC_BW;

    /** perftest's {@code VerbType}. */
    public enum Verb { SEND, WRITE, READ, ATOMIC }

    /** The name's first word: {@code WRITE} of {@code WRITE_LAT}. */
    private final Verb verb = Verb.valueOf(name().substring(0, name().indexOf('_')));
    /** The name's last word: {@code _LAT} (latency), else {@code _BW} (bandwidth). */
    private final boolean latency = name().endsWith("_LAT");

    public Verb verb() {
        return verb;
    }

    public boolean isLatency() {
        return latency;
    }

    /** The name on the command line: {@code write_lat}. */
    public String testName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The C program: {@code ib_write_lat}. */
    public String program() {
        return "ib_" + testName();
    }

    /** The test named {@code name} ({@code write_lat} or {@code ib_write_lat}). */
    public static TestKind byName(String name) {
        String bare = name.startsWith("ib_") ? name.substring(3) : name;
        for (TestKind kind : values()) {
            if (kind.testName().equals(bare)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown test '" + name + "': one of " + Arrays.stream(values())
                .map(TestKind::testName).toList());
    }
}
