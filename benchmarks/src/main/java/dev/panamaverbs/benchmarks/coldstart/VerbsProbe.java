package dev.panamaverbs.benchmarks.coldstart;

import dev.panamaverbs.Verbs;

/**
 * What an application runs first: {@link Verbs#isAvailable()}, then {@link Verbs#devices()}.
 * Prints the milliseconds from {@code main} to the answer, as {@link PlainFfmFloor} does.
 */
public final class VerbsProbe {
    private VerbsProbe() {}

    /**
     * Runs the probe once.
     *
     * @param args none
     */
    public static void main(String[] args) {
        long start = System.nanoTime();
        boolean available = Verbs.isAvailable();
        ColdStart.report(start, "available=" + available + (available ? " devices=" + Verbs.devices().size() : ""));
    }
}
