package dev.panamaverbs.it.twohost;

import dev.panamaverbs.it.support.PeerSide;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageServer;
import dev.panamaverbs.messaging.ReceivedMessage;
import dev.panamaverbs.messaging.SharedReceivePool;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Host B's side of {@link MessageChannelTwoHostTest}: a {@link MessageServer} on B's link address
 * (port published as "port") whose channels all receive from one {@link SharedReceivePool} (an
 * SRQ) for {@link #POOLED_CHANNELS} channels at once. Each accepted channel is served on a
 * virtual thread by its first message's mode byte:
 * <ul>
 * <li>{@code 'C'} (then connection int, seed long, count int, little-endian): receives
 *     {@code count} messages, checks every byte against {@link MessagePattern}, and answers with
 *     one DATA message, "ok N" or the first mismatch;</li>
 * <li>{@code 'R'} (then seed long, size int): receives one message of {@code size} bytes by
 *     rendezvous, checks it against {@link MessagePattern#fillLarge}, and answers "ok N" or the
 *     first mismatch;</li>
 * <li>{@code 'Q'}: answers every request with its own payload, until A closes;</li>
 * <li>{@code 'H'}: receives requests and answers none (the test kills this process meanwhile).</li>
 * </ul>
 * It serves until it is killed.
 */
public final class MessagePeer {
    static final ChannelOptions OPTIONS = ChannelOptions.builder().receiveCredits(16).sendBuffers(4).build();
    static final Duration WAIT = Duration.ofSeconds(300);
    /** The channels the test's first case opens at once: 8, or {@code VERBS_MESSAGING_CONNECTIONS} (both VMs see it). */
    static final int CONNECTIONS = Integer.parseInt(System.getenv().getOrDefault("VERBS_MESSAGING_CONNECTIONS", "8"));
    /** The channels B serves at once at most: the test's {@link #CONNECTIONS}, with room for a late close. */
    static final int POOLED_CHANNELS = CONNECTIONS + 4;

    private MessagePeer() {}

    public static void main(String[] args) throws Exception {
        InetSocketAddress local = new InetSocketAddress(PeerSide.localAddress(), 0);
        try (SharedReceivePool pool = SharedReceivePool.create(local, OPTIONS, POOLED_CHANNELS);
             MessageServer server = MessageServer.listen(local, OPTIONS, pool)) {
            PeerSide.publish("port", server.localAddress().getPort());
            System.out.println("MessagePeer: listening at " + server.localAddress());
            while (true) {
                MessageChannel channel = server.accept(Duration.ofSeconds(600))
                        .orElseThrow(() -> new IllegalStateException("no connection for 600 s"));
                Thread.ofVirtual().name("serve " + channel.remoteAddress()).start(() -> serve(channel));
            }
        }
    }

    private static void serve(MessageChannel channel) {
        try (channel) {
            ReceivedMessage first = channel.receive(WAIT);
            if (first == null) {
                System.out.println("MessagePeer: no first message from " + channel.remoteAddress());
                return;
            }
            MemorySegment hello = first.payload();
            byte mode = hello.get(ValueLayout.JAVA_BYTE, 0);
            if (mode == 'H') {
                first.release();
                while (channel.receive(WAIT) instanceof ReceivedMessage request) {
                    request.release(); // never answered
                }
                return;
            }
            if (mode == 'Q') {
                first.release();
                int answered = answerAll(channel);
                System.out.println("MessagePeer: answered " + answered + " requests");
                return;
            }
            if (mode == 'R') {
                long seed = hello.get(ValueLayout.JAVA_LONG_UNALIGNED, 1);
                int size = hello.get(ValueLayout.JAVA_INT_UNALIGNED, 9);
                first.release();
                String verdict = checkLarge(channel, seed, size);
                System.out.println("MessagePeer: rendezvous: " + verdict);
                channel.send(MemorySegment.ofArray(verdict.getBytes(StandardCharsets.UTF_8)));
                channel.receive(WAIT); // until A closes
                return;
            }
            int connection = hello.get(ValueLayout.JAVA_INT_UNALIGNED, 1);
            long seed = hello.get(ValueLayout.JAVA_LONG_UNALIGNED, 5);
            int count = hello.get(ValueLayout.JAVA_INT_UNALIGNED, 13);
            first.release();
            String verdict = check(channel, new MessagePattern(seed, connection), count);
            System.out.println("MessagePeer: connection " + connection + ": " + verdict);
            channel.send(MemorySegment.ofArray(verdict.getBytes(StandardCharsets.UTF_8)));
            channel.receive(WAIT); // until A closes: the channel fails then
        } catch (RuntimeException e) {
            System.out.println("MessagePeer: channel ended: " + e);
        }
    }

    /** Answers each request with its payload until the channel ends; {@return how many} */
    private static int answerAll(MessageChannel channel) {
        int answered = 0;
        try {
            while (channel.receive(WAIT) instanceof ReceivedMessage request) {
                try {
                    channel.respond(request.correlation(), request.payload());
                    answered++;
                } finally {
                    request.release();
                }
            }
        } catch (RuntimeException closedByA) {
            // A closed the channel: the load is over
        }
        return answered;
    }

    private static String checkLarge(MessageChannel channel, long seed, int size) {
        ReceivedMessage message = channel.receive(WAIT);
        if (message == null) {
            return "the large message did not arrive";
        }
        try {
            if (message.length() != size) {
                return "the large message has " + message.length() + " bytes, expected " + size;
            }
            long mismatch = MessagePattern.checkLarge(message.payload(), seed);
            return mismatch >= 0 ? "byte " + mismatch + " of the large message differs" : "ok " + size;
        } finally {
            message.release();
        }
    }

    private static String check(MessageChannel channel, MessagePattern pattern, int count) {
        MemorySegment expected = Arena.ofAuto().allocate(MessagePattern.MAX);
        for (int i = 0; i < count; i++) {
            ReceivedMessage message = channel.receive(WAIT);
            if (message == null) {
                return "message " + i + " did not arrive";
            }
            int size = pattern.nextSize(i);
            if (message.length() != size) {
                return "message " + i + " has " + message.length() + " bytes, expected " + size;
            }
            pattern.fill(expected, i, size);
            long mismatch = message.payload().mismatch(expected.asSlice(0, size));
            message.release();
            if (mismatch >= 0) {
                return "message " + i + ": byte " + mismatch + " differs";
            }
        }
        return "ok " + count;
    }
}
