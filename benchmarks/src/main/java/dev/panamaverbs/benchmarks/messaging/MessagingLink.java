package dev.panamaverbs.benchmarks.messaging;

import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.ReceivedMessage;
import dev.panamaverbs.messaging.SendBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link Link} over a verbs-messaging {@link MessageChannel}. A message up to the channel's
 * rendezvous threshold goes without a copy: written into a registered {@link SendBuffer} and sent
 * ({@code sendBuffer()}, {@code send(length)}). A larger one goes by rendezvous
 * ({@code sendAsync}), with up to {@code window} messages outstanding, each from a native
 * source buffer of its own that stays untouched until its future completes (the peer's DONE).
 * Receiving: {@code receive}, check, {@code release}; or, copying out, {@code receive(destination,
 * timeout)} into a native buffer of the link's own, then the check.
 */
final class MessagingLink implements Link {
    /** How long a receive waits before the run fails: a lost message must not hang it. */
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(120);

    private final MessageChannel channel;
    private final int size;
    private final boolean rendezvous;
    private final MemorySegment[] sources;
    private final CompletableFuture<?>[] outstanding;
    /** Where a copying receive puts the payload, or null for the zero-copy receive. */
    private final MemorySegment destination;
    private long sent;

    /**
     * @param channel the channel's end
     * @param size    the messages' size
     * @param arena   where the rendezvous source buffers live (the caller's to close, after the channel)
     * @param window  rendezvous messages outstanding at once
     * @param copyOut receive by copying into a buffer of the link's own ({@code receive(MemorySegment, Duration)})
     */
    MessagingLink(MessageChannel channel, int size, Arena arena, int window, boolean copyOut) {
        this.channel = channel;
        this.size = size;
        this.rendezvous = size > channel.rendezvousThreshold();
        this.sources = new MemorySegment[rendezvous ? window : 0];
        this.outstanding = new CompletableFuture<?>[sources.length];
        this.destination = copyOut ? arena.allocate(size, 64) : null;
        for (int i = 0; i < sources.length; i++) {
            sources[i] = arena.allocate(size, 64);
        }
    }

    @Override
    public void send(long word) {
        if (!rendezvous) {
            SendBuffer buffer = channel.sendBuffer();
            Stamp.write(buffer.segment(), size, word);
            buffer.send(size);
            return;
        }
        int i = (int) (sent++ % sources.length);
        if (outstanding[i] != null) {
            outstanding[i].join(); // its source may be written again only after the peer read it
        }
        Stamp.write(sources[i], size, word);
        outstanding[i] = channel.sendAsync(sources[i], SEND_TIMEOUT);
    }

    @Override
    public long receive() {
        if (destination != null) {
            int length = channel.receive(destination, RECEIVE_TIMEOUT);
            if (length < 0) {
                throw new IllegalStateException("no message within " + RECEIVE_TIMEOUT + " on " + channel);
            }
            return Stamp.check(destination, length, size);
        }
        ReceivedMessage message = channel.receive(RECEIVE_TIMEOUT);
        if (message == null) {
            throw new IllegalStateException("no message within " + RECEIVE_TIMEOUT + " on " + channel);
        }
        try {
            return Stamp.check(message.payload(), message.length(), size);
        } finally {
            message.release();
        }
    }

    @Override
    public void flush() {
        for (int i = 0; i < outstanding.length; i++) {
            if (outstanding[i] != null) {
                outstanding[i].join();
                outstanding[i] = null;
            }
        }
    }

    @Override
    public void abort() {
        channel.close();
    }
}
