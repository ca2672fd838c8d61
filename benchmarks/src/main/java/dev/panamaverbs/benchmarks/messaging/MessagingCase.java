package dev.panamaverbs.benchmarks.messaging;

import dev.panamaverbs.messaging.ChannelOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One case of issue 24's messaging benchmark, in the order both runs take them (the one-host
 * {@link MessagingCompare} and the two-host bench, whose host B follows the same list): 64-byte
 * round trips, 4 KiB one way, 1 MiB one way, each in the modes in turn.
 *
 * @param size the messages' size
 * @param mode how they travel
 */
record MessagingCase(int size, Mode mode) {
    static final int SMALL = 64;
    static final int MEDIUM = 4096;
    static final int LARGE = 1 << 20;
    /** As {@link ChannelOptions#DEFAULT_SEND_BUFFERS} and {@link ChannelOptions#DEFAULT_RECEIVE_CREDITS}. */
    private static final int SENDS = 16;
    private static final int RECEIVES = 64;
    /**
     * 1 MiB: rendezvous messages outstanding, and the verbs loop's slots. Two: the sources stay
     * registered (leased) while outstanding, and the default registration budget is half of
     * RLIMIT_MEMLOCK, 4 MiB in the rxe VM, which four 1 MiB sources (4 KiB more each) overflow.
     */
    private static final int LARGE_SENDS = 2;
    private static final int LARGE_RECEIVES = 4;
    /** The busy-polling mode's {@link ChannelOptions#receiveBusyPoll()}: longer than any wait for the next message. */
    static final Duration BUSY_POLL = Duration.ofSeconds(1);

    /** How the messages travel; {@link #label} names the table's rows. */
    enum Mode {
        /** verbs-messaging, default options, zero-copy receive. */
        MESSAGING("messaging"),
        /** The same, received with {@code receive(destination, timeout)}. */
        COPY_OUT("messaging, copy-out"),
        /** verbs-messaging with {@link #BUSY_POLL}. */
        BUSY_POLL("messaging, busy poll"),
        /** The plain verbs loop ({@link VerbsLink}). */
        VERBS("verbs"),
        /** Java NIO TCP ({@link TcpLink}). */
        TCP("tcp");

        final String label;

        Mode(String label) {
            this.label = label;
        }

        /** {@return the channel options of this mode (the messaging modes)} */
        ChannelOptions channelOptions() {
            return this == BUSY_POLL ? ChannelOptions.builder().receiveBusyPoll(MessagingCase.BUSY_POLL).build()
                    : ChannelOptions.defaults();
        }
    }

    /** {@return every case, in order} Copy-out and busy poll not at 1 MiB (its sources stay registered under the budget, see LARGE_SENDS). */
    static List<MessagingCase> all() {
        List<MessagingCase> cases = new ArrayList<>();
        for (int size : new int[] {SMALL, MEDIUM, LARGE}) {
            for (Mode mode : Mode.values()) {
                if (size != LARGE || (mode != Mode.COPY_OUT && mode != Mode.BUSY_POLL)) {
                    cases.add(new MessagingCase(size, mode));
                }
            }
        }
        return cases;
    }

    /** {@return whether this case is round trips (64 B), else one way} */
    boolean roundTrips() {
        return size == SMALL;
    }

    /** {@return sends in flight and rendezvous messages outstanding} */
    int sends() {
        return size == LARGE ? LARGE_SENDS : SENDS;
    }

    /** {@return receives the verbs loop posts} */
    int receives() {
        return size == LARGE ? LARGE_RECEIVES : RECEIVES;
    }

    /** {@return whether messaging receives by copying out} */
    boolean copyOut() {
        return mode == Mode.COPY_OUT;
    }

    /** {@return what the table's note says of how the messages travel} */
    String note(int rendezvousThreshold) {
        String how = size > rendezvousThreshold ? "rendezvous, sendAsync with " + sends() + " outstanding" : "zero-copy SendBuffer";
        return switch (mode) {
            case MESSAGING -> how;
            case COPY_OUT -> how + ", receive(destination, timeout)";
            case BUSY_POLL -> how + ", receiveBusyPoll " + BUSY_POLL.toMillis() + " ms";
            case VERBS -> "SEND/RECV, " + sends() + " sends in flight, " + receives() + " receives posted";
            case TCP -> "NIO SocketChannel, TCP_NODELAY";
        };
    }

    /** {@return e.g. "64 B round trip", "1 MiB one way"} */
    String label() {
        String bytes = size >= LARGE ? size / LARGE + " MiB" : size >= 1024 ? size / 1024 + " KiB" : size + " B";
        return bytes + (roundTrips() ? " round trip" : " one way");
    }
}
