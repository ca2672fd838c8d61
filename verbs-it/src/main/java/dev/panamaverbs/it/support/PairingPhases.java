package dev.panamaverbs.it.support;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * When each step of one interop pairing happened, in seconds from the server's start request,
 * printed as one line with the pairing's report ({@code pairing phases of ...}): where a
 * pairing's time goes under TCG (docs/suite-time.md's phase table was read from these lines). A
 * step is seen by polling, so its time is that of the poll that saw it.
 */
final class PairingPhases {
    private record Step(String name, long at) {}

    private final long start = System.nanoTime();
    private final List<Step> steps = new ArrayList<>();

    /** Marks {@code step} as done now. */
    void mark(String step) {
        markAt(step, System.nanoTime());
    }

    /** Marks {@code step} as done at {@code nanoTime} ({@link System#nanoTime()}). */
    synchronized void markAt(String step, long nanoTime) {
        steps.add(new Step(step, nanoTime));
    }

    /** The line for the pairing of {@code server} and {@code client}, its steps in time order. */
    synchronized String line(String server, String client) {
        return "pairing phases of " + server + " / " + client + " (s from the server's start): "
                + steps.stream().sorted(Comparator.comparingLong(Step::at))
                        .map(step -> String.format(Locale.ROOT, "%s %.1f", step.name(), (step.at() - start) / 1e9))
                        .collect(Collectors.joining(", ")) + "\n";
    }
}
