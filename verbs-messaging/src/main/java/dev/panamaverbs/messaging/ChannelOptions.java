package dev.panamaverbs.messaging;

import dev.panamaverbs.messaging.registration.RegistrationBudget;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link MessageChannel} sizes its buffers and how long it waits. Every field is checked when
 * built, with a message naming the field, before anything is registered.
 *
 * @param receiveCredits the receive buffers of the window, advertised to the peer as its credits
 *                       (the channel posts {@value #CONTROL_RESERVE} more for credit messages)
 * @param maxMessageSize the largest payload of one message, bytes; each receive and send buffer
 *                       is this plus the {@value MessageHeader#SIZE}-byte header
 * @param sendBuffers    registered send buffers (messages in flight at once)
 * @param sendTimeout    how long a send waits for a credit and a free send buffer;
 *                       {@link Duration#ZERO}: fail at once ({@link CreditTimeoutException})
 * @param connectTimeout the deadline of address and route resolution, connect and accept, each
 * @param retryCount     the transport {@code retry_count} (0..7; 7 retries for ever on rxe, so a
 *                       dead peer would never be noticed)
 * @param rendezvousThreshold a {@link MessageChannel#send(MemorySegment)} payload larger than this
 *                       goes by rendezvous (1..{@code maxMessageSize}; default {@code maxMessageSize}:
 *                       what does not fit one receive buffer)
 * @param maxRendezvousSize the largest rendezvous message this side accepts; a larger offer is
 *                       refused per message ({@link RendezvousStatus#TOO_LARGE})
 * @param rendezvousReadDepth the RDMA READs this side may have outstanding, asked for as
 *                       {@code initiator_depth} and {@code responder_resources} in the rdma_cm
 *                       connection parameters (within the device's limits; the connection's
 *                       negotiated value rules)
 * @param rendezvousChunkSize the largest RDMA READ (also never above the port's {@code max_msg_sz})
 * @param rendezvousAllocator where received rendezvous messages land
 * @param rendezvousRegistrationBudget the budget of the registration cache that registers large
 *                       native messages to send
 * @param receiveBusyPoll how long {@link MessageChannel#receive} polls the channel's completion
 *                       queue on the calling thread before it parks: a round trip then skips the
 *                       completion event and the poller thread's hand-off, for a core spinning
 *                       meanwhile (it yields that core now and then); {@link Duration#ZERO} (the
 *                       default) parks at once and leaves every completion to the shared poller.
 *                       For round trips with a core to spare per spinning receiver: a one-way
 *                       stream on a machine without one loses throughput (docs/messaging.md)
 */
public record ChannelOptions(int receiveCredits, int maxMessageSize, int sendBuffers, Duration sendTimeout,
                             Duration connectTimeout, int retryCount, int rendezvousThreshold, int maxRendezvousSize,
                             int rendezvousReadDepth, int rendezvousChunkSize, RendezvousAllocator rendezvousAllocator,
                             RegistrationBudget rendezvousRegistrationBudget, Duration receiveBusyPoll) {
    /** Receive buffers posted beyond the window, for explicit credit messages (docs/messaging.md). */
    public static final int CONTROL_RESERVE = 2;
    /** The default window: 64 receive buffers. */
    public static final int DEFAULT_RECEIVE_CREDITS = 64;
    /** The default largest payload: 64 KiB. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024;
    /** The default number of send buffers: 16. */
    public static final int DEFAULT_SEND_BUFFERS = 16;
    /** The largest window: the credits field is 32 bits, but a larger window only wastes memory. */
    public static final int MAX_RECEIVE_CREDITS = 16_384;
    /** The largest payload of one message in a receive buffer: 16 MiB (larger ones go by rendezvous). */
    public static final int MAX_MESSAGE_SIZE_LIMIT = 16 * 1024 * 1024;
    /** The most registered memory one channel's receive or send pool may take: 1 GiB. */
    public static final long MAX_POOL_BYTES = 1L << 30;

    /** The default largest rendezvous message accepted: 1 GiB. */
    public static final int DEFAULT_MAX_RENDEZVOUS_SIZE = 1 << 30;
    /** The default RDMA READs outstanding: 16. */
    public static final int DEFAULT_RENDEZVOUS_READ_DEPTH = 16;
    /** The default largest RDMA READ: 1 MiB. */
    public static final int DEFAULT_RENDEZVOUS_CHUNK_SIZE = 1 << 20;

    private static final ChannelOptions DEFAULTS = builder().build();

    /** Checks every field. */
    public ChannelOptions {
        requireRange("receiveCredits", receiveCredits, 1, MAX_RECEIVE_CREDITS);
        requireRange("maxMessageSize", maxMessageSize, 1, MAX_MESSAGE_SIZE_LIMIT);
        requireRange("sendBuffers", sendBuffers, 1, 4096);
        requireRange("retryCount", retryCount, 0, 7);
        requireDuration("sendTimeout", sendTimeout);
        requireDuration("connectTimeout", connectTimeout);
        requireDuration("receiveBusyPoll", receiveBusyPoll);
        requireRange("rendezvousThreshold", rendezvousThreshold, 1, maxMessageSize);
        requireRange("maxRendezvousSize", maxRendezvousSize, 1, Integer.MAX_VALUE);
        requireRange("rendezvousReadDepth", rendezvousReadDepth, 1, 255);
        requireRange("rendezvousChunkSize", rendezvousChunkSize, 1, 1 << 30);
        Objects.requireNonNull(rendezvousAllocator, "channel options: rendezvousAllocator is null");
        Objects.requireNonNull(rendezvousRegistrationBudget, "channel options: rendezvousRegistrationBudget is null");
        long slot = (long) MessageHeader.SIZE + maxMessageSize;
        long receivePool = slot * (receiveCredits + CONTROL_RESERVE);
        if (receivePool > MAX_POOL_BYTES) {
            throw new IllegalArgumentException("channel options: the receive pool of (receiveCredits " + receiveCredits
                    + " + " + CONTROL_RESERVE + ") x (maxMessageSize " + maxMessageSize + " + " + MessageHeader.SIZE
                    + "-byte header) = " + receivePool + " bytes exceeds " + MAX_POOL_BYTES
                    + " (1 GiB): lower receiveCredits or maxMessageSize");
        }
        long sendPool = slot * sendBuffers;
        if (sendPool > MAX_POOL_BYTES) {
            throw new IllegalArgumentException("channel options: the send pool of sendBuffers " + sendBuffers
                    + " x (maxMessageSize " + maxMessageSize + " + " + MessageHeader.SIZE + "-byte header) = " + sendPool
                    + " bytes exceeds " + MAX_POOL_BYTES + " (1 GiB): lower sendBuffers or maxMessageSize");
        }
    }

    /**
     * The defaults: 64 credits, 64 KiB messages, 16 send buffers, a 30 s send timeout, a 20 s
     * connect timeout, retry count 6; rendezvous above 64 KiB, up to 1 GiB, 16 READs of at most
     * 1 MiB outstanding, {@link RendezvousAllocator#registering()}, the registration cache's
     * {@link RegistrationBudget#defaultBudget()}; no busy polling.
     *
     * @return the defaults
     */
    public static ChannelOptions defaults() {
        return DEFAULTS;
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the bytes of one buffer: the header plus {@link #maxMessageSize()}} */
    public int bufferSize() {
        return MessageHeader.SIZE + maxMessageSize;
    }

    /** {@return the receive buffers a channel posts: the window plus the {@value #CONTROL_RESERVE} reserved for credit messages} */
    public int receiveBuffers() {
        return receiveCredits + CONTROL_RESERVE;
    }

    /** {@return the registered bytes of one channel's receive pool} */
    public long receivePoolBytes() {
        return (long) bufferSize() * receiveBuffers();
    }

    /** {@return the registered bytes of one channel's send pool (the credit messages' header slots included)} */
    public long sendPoolBytes() {
        return (long) bufferSize() * sendBuffers + (long) MessageHeader.SIZE * CONTROL_RESERVE;
    }

    private static void requireRange(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("channel options: " + field + " must be in " + min + ".." + max
                    + ", got " + value);
        }
    }

    private static void requireDuration(String field, Duration value) {
        Objects.requireNonNull(value, "channel options: " + field + " is null");
        if (value.isNegative()) {
            throw new IllegalArgumentException("channel options: " + field + " must not be negative, got " + value);
        }
    }

    /** Builds {@link ChannelOptions}; every setter returns the builder. */
    public static final class Builder {
        private int receiveCredits = DEFAULT_RECEIVE_CREDITS;
        private int maxMessageSize = DEFAULT_MAX_MESSAGE_SIZE;
        private int sendBuffers = DEFAULT_SEND_BUFFERS;
        private Duration sendTimeout = Duration.ofSeconds(30);
        private Duration connectTimeout = Duration.ofSeconds(20);
        private Duration receiveBusyPoll = Duration.ZERO;
        private int retryCount = 6;
        private int rendezvousThreshold;
        private int maxRendezvousSize = DEFAULT_MAX_RENDEZVOUS_SIZE;
        private int rendezvousReadDepth = DEFAULT_RENDEZVOUS_READ_DEPTH;
        private int rendezvousChunkSize = DEFAULT_RENDEZVOUS_CHUNK_SIZE;
        private RendezvousAllocator rendezvousAllocator = RendezvousAllocator.registering();
        private RegistrationBudget rendezvousRegistrationBudget = RegistrationBudget.defaultBudget();

        private Builder() {}

        /**
         * Payloads larger than this go by rendezvous; 0 (the default) means {@code maxMessageSize}.
         *
         * @param bytes 0, or 1..{@code maxMessageSize}
         * @return this builder
         */
        public Builder rendezvousThreshold(int bytes) {
            this.rendezvousThreshold = bytes;
            return this;
        }

        /**
         * The largest rendezvous message this side accepts.
         *
         * @param bytes 1..2^31-1
         * @return this builder
         */
        public Builder maxRendezvousSize(int bytes) {
            this.maxRendezvousSize = bytes;
            return this;
        }

        /**
         * The RDMA READs outstanding at once (asked for in the connection parameters).
         *
         * @param reads 1..255
         * @return this builder
         */
        public Builder rendezvousReadDepth(int reads) {
            this.rendezvousReadDepth = reads;
            return this;
        }

        /**
         * The largest RDMA READ.
         *
         * @param bytes 1..2^30
         * @return this builder
         */
        public Builder rendezvousChunkSize(int bytes) {
            this.rendezvousChunkSize = bytes;
            return this;
        }

        /**
         * Where received rendezvous messages land.
         *
         * @param allocator the allocator
         * @return this builder
         */
        public Builder rendezvousAllocator(RendezvousAllocator allocator) {
            this.rendezvousAllocator = allocator;
            return this;
        }

        /**
         * The budget of the registration cache for large messages sent from native memory.
         *
         * @param budget the budget
         * @return this builder
         */
        public Builder rendezvousRegistrationBudget(RegistrationBudget budget) {
            this.rendezvousRegistrationBudget = budget;
            return this;
        }

        /**
         * The window: receive buffers advertised to the peer as credits.
         *
         * @param count 1..{@value ChannelOptions#MAX_RECEIVE_CREDITS}
         * @return this builder
         */
        public Builder receiveCredits(int count) {
            this.receiveCredits = count;
            return this;
        }

        /**
         * The largest payload of a message.
         *
         * @param bytes 1..{@value ChannelOptions#MAX_MESSAGE_SIZE_LIMIT}
         * @return this builder
         */
        public Builder maxMessageSize(int bytes) {
            this.maxMessageSize = bytes;
            return this;
        }

        /**
         * The registered send buffers.
         *
         * @param count 1..4096
         * @return this builder
         */
        public Builder sendBuffers(int count) {
            this.sendBuffers = count;
            return this;
        }

        /**
         * How long a send waits for a credit and a send buffer; zero fails at once.
         *
         * @param timeout not negative
         * @return this builder
         */
        public Builder sendTimeout(Duration timeout) {
            this.sendTimeout = timeout;
            return this;
        }

        /**
         * The deadline of resolution, connect and accept, each.
         *
         * @param timeout not negative
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        /**
         * How long {@link MessageChannel#receive} polls the completion queue itself before it
         * parks; zero (the default) parks at once.
         *
         * @param spin not negative
         * @return this builder
         */
        public Builder receiveBusyPoll(Duration spin) {
            this.receiveBusyPoll = spin;
            return this;
        }

        /**
         * The transport retry count.
         *
         * @param count 0..7
         * @return this builder
         */
        public Builder retryCount(int count) {
            this.retryCount = count;
            return this;
        }

        /**
         * Checks and builds.
         *
         * @return the options
         * @throws IllegalArgumentException naming the field that is out of range, or the pool that
         *         would exceed {@link ChannelOptions#MAX_POOL_BYTES}
         */
        public ChannelOptions build() {
            return new ChannelOptions(receiveCredits, maxMessageSize, sendBuffers, sendTimeout, connectTimeout, retryCount,
                    rendezvousThreshold == 0 ? maxMessageSize : rendezvousThreshold, maxRendezvousSize,
                    rendezvousReadDepth, rendezvousChunkSize, rendezvousAllocator, rendezvousRegistrationBudget,
                    receiveBusyPoll);
        }
    }
}
