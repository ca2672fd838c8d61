package dev.panamaverbs.perftest;

/**
 * perftest's {@code -h} and {@code -V}: the parser stops, the text goes to stdout, and the
 * program ends with exit status 1, as Debian's perftest 4.5 ends ({@code HELP_EXIT},
 * {@code VERSION_EXIT}: checked with {@code ib_send_lat -h} and {@code -V} on the host).
 */
final class PrintAndExit extends RuntimeException {
    /** perftest's exit status after its usage or its version. */
    static final int STATUS = 1;

    private final String text;

    PrintAndExit(String text) {
        super(null, null, false, false);
        this.text = text;
    }

    /** What perftest prints. */
    String text() {
        return text;
    }
}
