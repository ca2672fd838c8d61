package dev.panamaverbs.it.twohost;

import dev.panamaverbs.it.support.PeerSide;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageServer;
import dev.panamaverbs.messaging.ReceivedMessage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Host B's side of {@link MessageChannelTwoHostTest}: a {@link MessageServer} on B's link address
 * (port published as "port"). Each accepted channel is served on a virtual thread by its first
 * message's mode byte:
 * <ul>
 * <li>{@code 'C'} (then connection int, seed long, count int, little-endian): receives
 *     {@code count} messages, checks every byte against {@link MessagePattern}, and answers with
 *     one DATA message, "ok N" or the first mismatch;</li>
 * <li>{@code 'H'}: receives requests and answers none (the test kills this process meanwhile).</li>
 * </ul>
 * It serves until it is killed.
 */
public final class MessagePeer {
    static final ChannelOptions OPTIONS = ChannelOptions.builder().receiveCredits(16).sendBuffers(4).build();
    static final Duration WAIT = Duration.ofSeconds(300);

    private MessagePeer() {}

    public static void main(String[] args) throws Exception {
        try (MessageServer server = MessageServer.listen(new InetSocketAddress(PeerSide.localAddress(), 0), OPTIONS)) {
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
