package dev.panamaverbs.benchmarks.messaging;

/**
 * What host B's end of one phase of the two-host bench reports back through the peer protocol
 * (a published value, one line): its {@link Exchange.End} and its poller thread's bytes over the
 * phase ({@code -1}: not measured, e.g. the verbs loop and TCP, which have no poller).
 * The line is {@code MESSAGES FIRST LAST ALLOCATED POLLER}, decimal.
 *
 * @param end            host B's end of the phase
 * @param pollerAllocated bytes host B's poller thread allocated over the phase, or -1
 */
record PeerReport(Exchange.End end, long pollerAllocated) {
    /** {@return the published key of phase {@code index} (warm-ups counted)} */
    static String key(int index) {
        return "phase-" + index;
    }

    /** {@return the one-line form} */
    String format() {
        return end.messages() + " " + end.first() + " " + end.last() + " " + end.allocated() + " " + pollerAllocated;
    }

    /**
     * {@return the report of {@code line}}
     *
     * @throws IllegalArgumentException unless it has five decimal numbers
     */
    static PeerReport parse(String line) {
        String[] words = line.strip().split(" ");
        if (words.length != 5) {
            throw new IllegalArgumentException("expected 'MESSAGES FIRST LAST ALLOCATED POLLER', got '" + line + "'");
        }
        long[] n = new long[5];
        for (int i = 0; i < 5; i++) {
            try {
                n[i] = Long.parseLong(words[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number: '" + words[i] + "' in '" + line + "'", e);
            }
        }
        return new PeerReport(new Exchange.End(n[0], n[1], n[2], 0, n[3]), n[4]);
    }
}
