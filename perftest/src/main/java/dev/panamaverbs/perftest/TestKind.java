package dev.panamaverbs.perftest;

import java.util.Arrays;
import java.util.Locale;

/**
 * The perftest tests, by their name without {@code ib_} ({@code write_lat} is {@code ib_write_lat}):
 * the verb each measures and whether it measures latency or bandwidth.
 */
public enum TestKind {
    WRITE_LAT(Verb.WRITE, true),
    SEND_LAT(Verb.SEND, true),
    READ_LAT(Verb.READ, true),
    ATOMIC_LAT(Verb.ATOMIC, true),
    WRITE_BW(Verb.WRITE, false),
    SEND_BW(Verb.SEND, false),
    READ_BW(Verb.READ, false),
    ATOMIC_BW(Verb.ATOMIC, false);

    /** perftest's {@code VerbType}. */
    public enum Verb { SEND, WRITE, READ, ATOMIC }

    private final Verb verb;
    private final boolean latency;

    TestKind(Verb verb, boolean latency) {
        this.verb = verb;
        this.latency = latency;
    }

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
