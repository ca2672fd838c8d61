package dev.panamaverbs.messaging;

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
 */
public record ChannelOptions(int receiveCredits, int maxMessageSize, int sendBuffers, Duration sendTimeout,
                             Duration connectTimeout, int retryCount) {
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
    /** The largest payload of one message: 16 MiB (larger ones will go by rendezvous). */
    public static final int MAX_MESSAGE_SIZE_LIMIT = 16 * 1024 * 1024;
    /** The most registered memory one channel's receive or send pool may take: 1 GiB. */
    public static final long MAX_POOL_BYTES = 1L << 30;

    private static final ChannelOptions DEFAULTS = builder().build();

    /** Checks every field. */
    public ChannelOptions {
        requireRange("receiveCredits", receiveCredits, 1, MAX_RECEIVE_CREDITS);
        requireRange("maxMessageSize", maxMessageSize, 1, MAX_MESSAGE_SIZE_LIMIT);
        requireRange("sendBuffers", sendBuffers, 1, 4096);
        requireRange("retryCount", retryCount, 0, 7);
        requireDuration("sendTimeout", sendTimeout);
        requireDuration("connectTimeout", connectTimeout);
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
     * connect timeout, retry count 6.
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
        private int retryCount = 6;

        private Builder() {}

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
            return new ChannelOptions(receiveCredits, maxMessageSize, sendBuffers, sendTimeout, connectTimeout, retryCount);
        }
    }
}
