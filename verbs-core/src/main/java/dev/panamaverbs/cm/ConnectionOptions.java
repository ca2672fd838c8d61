package dev.panamaverbs.cm;

import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.Ranges;
import java.time.Duration;
import java.util.Objects;

/**
 * How rdma_cm connects: the C {@code struct rdma_conn_param} ({@code private_data},
 * {@code responder_resources}, {@code initiator_depth}, {@code retry_count},
 * {@code rnr_retry_count}), the timeouts of each wait, and the sizes of the queues the
 * high-level {@link RdmaConnection}, {@link RdmaListener} and {@link RdmaDatagramSocket} create.
 * Immutable; {@link #defaults()} or {@link #builder()}.
 *
 * <h2>Detecting a dead peer</h2>
 * {@code retry_count} (3 bits) is how often an unacknowledged packet is sent again before its
 * work request completes with {@code RETRY_EXC_ERR}. <b>7 means "retry for ever" on SoftRoCE
 * (rxe)</b>: a dead peer is then never noticed. The default here is {@value #DEFAULT_RETRY_COUNT}:
 * a dead peer is detected after about (retry_count + 1) local ACK timeouts. rdma_cm sets that
 * timeout from the path's packet lifetime; on rxe over RoCE v2 a try took about 2 s (with 3
 * retries a pulled cable was reported after 8.2 s), so the default bound is about 15 s.
 * {@code rnr_retry_count} 7 (the default) retries "receiver not ready" for ever: the peer is alive
 * and only late with its receives; 0..6 fails instead.
 *
 * <h2>Private data limits (InfiniBand CM, also RoCE)</h2>
 * connect {@value #MAX_CONNECT_PRIVATE_DATA} bytes, accept {@value #MAX_ACCEPT_PRIVATE_DATA},
 * reject {@value #MAX_REJECT_PRIVATE_DATA}; UD resolution request {@value #MAX_DATAGRAM_REQUEST_PRIVATE_DATA},
 * its reply {@value #MAX_DATAGRAM_REPLY_PRIVATE_DATA}. The CM may pad what arrives to the field's
 * fixed size with zeros. Options refuse more than {@value #MAX_ACCEPT_PRIVATE_DATA} bytes when built,
 * more than {@value #MAX_CONNECT_PRIVATE_DATA} once {@link Builder#forConnecting()} says they are for a
 * connect; every call checks its own limit before any native call.
 *
 * @param privateData          bytes sent with the connect or accept (copied)
 * @param responderResources   {@code responder_resources}: RDMA READ/atomics the peer may have outstanding to us
 * @param initiatorDepth       {@code initiator_depth}: RDMA READ/atomics we may have outstanding to the peer
 * @param retryCount           {@code retry_count}, 0..7 (7: for ever on rxe)
 * @param rnrRetryCount        {@code rnr_retry_count}, 0..7 (7: for ever)
 * @param resolveTimeout       limit of address resolution and of route resolution, each
 * @param connectTimeout       limit of a connect or accept until ESTABLISHED, and of a disconnect
 * @param maxSendWorkRequests  send queue depth of the queue pair the high-level classes create
 * @param maxReceiveWorkRequests receive queue depth
 * @param maxSge               scatter/gather entries per request, send and receive
 * @param maxInlineData        inline bytes per send
 * @param completionQueueSize  entries of the one completion queue both queues use
 * @param backlog              pending connection requests a listener queues ({@code rdma_listen})
 * @param listenerWait         how long {@link RdmaConnection#connect} keeps trying again while nothing
 *                             listens on the port yet (rejected with reason 8), the whole call's deadline;
 *                             {@link Duration#ZERO} (the default): no retry
 * @param separateCompletionQueues whether the high-level classes give the queue pair a send and a
 *                             receive completion queue of their own ({@code completionQueueSize} each)
 *                             instead of one for both (the default)
 * @param completionChannel    whether those completion queues signal a completion channel of their
 *                             own ({@code ibv_create_comp_channel}, vector 0), so that their owner can
 *                             sleep on completion events ({@code CompletionQueue.awaitCompletions});
 *                             closed with the connection (default false: no channel)
 */
public record ConnectionOptions(byte[] privateData, int responderResources, int initiatorDepth, int retryCount,
                                int rnrRetryCount, Duration resolveTimeout, Duration connectTimeout,
                                int maxSendWorkRequests, int maxReceiveWorkRequests, int maxSge, int maxInlineData,
                                int completionQueueSize, int backlog, Duration listenerWait,
                                boolean separateCompletionQueues, boolean completionChannel) {
    /** Private data of a connect (IB CM REQ, less rdma_cm's own header). */
    public static final int MAX_CONNECT_PRIVATE_DATA = 56;
    /** Private data of an accept (IB CM REP). */
    public static final int MAX_ACCEPT_PRIVATE_DATA = 196;
    /** Private data of a reject (IB CM REJ). */
    public static final int MAX_REJECT_PRIVATE_DATA = 148;
    /** Private data of a UD resolution request (IB CM SIDR REQ, less rdma_cm's header). */
    public static final int MAX_DATAGRAM_REQUEST_PRIVATE_DATA = 180;
    /** Private data of a UD resolution reply (IB CM SIDR REP). */
    public static final int MAX_DATAGRAM_REPLY_PRIVATE_DATA = 136;
    /** The default {@code retry_count}: bounded (7 retries for ever on rxe). */
    public static final int DEFAULT_RETRY_COUNT = 6;

    private static final ConnectionOptions DEFAULTS = builder().build();

    /** Checks every field. */
    public ConnectionOptions {
        Objects.requireNonNull(privateData, "privateData");
        privateData = privateData.clone();
        Ranges.require("rdma_conn_param", "responder_resources", responderResources, 0, 255);
        Ranges.require("rdma_conn_param", "initiator_depth", initiatorDepth, 0, 255);
        Ranges.require("rdma_conn_param", "retry_count", retryCount, 0, 7);
        Ranges.require("rdma_conn_param", "rnr_retry_count", rnrRetryCount, 0, 7);
        requireTimeout("resolveTimeout", resolveTimeout);
        requireTimeout("connectTimeout", connectTimeout);
        Ranges.require("rdma_conn_param", "maxSendWorkRequests", maxSendWorkRequests, 1, Integer.MAX_VALUE);
        Ranges.require("rdma_conn_param", "maxReceiveWorkRequests", maxReceiveWorkRequests, 1, Integer.MAX_VALUE);
        Ranges.require("rdma_conn_param", "maxSge", maxSge, 1, Integer.MAX_VALUE);
        Ranges.require("rdma_conn_param", "maxInlineData", maxInlineData, 0, Integer.MAX_VALUE);
        Ranges.require("rdma_conn_param", "completionQueueSize", completionQueueSize, 1, Integer.MAX_VALUE);
        Ranges.require("rdma_conn_param", "backlog", backlog, 0, Integer.MAX_VALUE);
        requireTimeout("listenerWait", listenerWait);
        // No rdma_cm message carries more than an accept's 196 bytes (the CM limits above).
        checkPrivateData("rdma_conn_param", privateData, MAX_ACCEPT_PRIVATE_DATA);
    }

    /**
     * The defaults: no private data, 1 read/atomic each way, retry 6, RNR retry 7, 64-deep queues.
     *
     * @return the defaults: no private data, 1 read/atomic each way, retry 6, RNR retry 7, 64-deep queues.
     */
    public static ConnectionOptions defaults() {
        return DEFAULTS;
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a builder starting from the defaults.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder starting from these options.
     *
     * @return a builder starting from these options.
     */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.privateData = privateData;
        builder.responderResources = responderResources;
        builder.initiatorDepth = initiatorDepth;
        builder.retryCount = retryCount;
        builder.rnrRetryCount = rnrRetryCount;
        builder.resolveTimeout = resolveTimeout;
        builder.connectTimeout = connectTimeout;
        builder.maxSendWorkRequests = maxSendWorkRequests;
        builder.maxReceiveWorkRequests = maxReceiveWorkRequests;
        builder.maxSge = maxSge;
        builder.maxInlineData = maxInlineData;
        builder.completionQueueSize = completionQueueSize;
        builder.backlog = backlog;
        builder.listenerWait = listenerWait;
        builder.separateCompletionQueues = separateCompletionQueues;
        builder.completionChannel = completionChannel;
        return builder;
    }

    /**
     * These options with other private data.
     *
     * @param data the private data to send with the connect or accept (copied)
     * @return these options with other private data.
     */
    public ConnectionOptions withPrivateData(byte[] data) {
        return toBuilder().privateData(data).build();
    }

    /**
     * A copy of the private data.
     *
     * @return a copy of the private data.
     */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /** The private data without a copy, for filling C structs. */
    byte[] privateDataUnsafe() {
        return privateData;
    }

    /** Throws naming {@code verb} and the limit when {@code data} is longer than {@code max} bytes. */
    static void checkPrivateData(String verb, byte[] data, int max) {
        if (data.length > max) {
            throw new IllegalArgumentException(verb + ": private data must be at most " + max
                    + " bytes here (InfiniBand CM limit), got " + data.length);
        }
    }

    /** A wait's timeout, after the library's one deadline rule (internal {@code Deadline}: zero is one check). */
    private static void requireTimeout(String field, Duration value) {
        Deadline.timeoutNanos("rdma_cm: " + field, value);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ConnectionOptions o && java.util.Arrays.equals(privateData, o.privateData)
                && responderResources == o.responderResources && initiatorDepth == o.initiatorDepth
                && retryCount == o.retryCount && rnrRetryCount == o.rnrRetryCount
                && resolveTimeout.equals(o.resolveTimeout) && connectTimeout.equals(o.connectTimeout)
                && maxSendWorkRequests == o.maxSendWorkRequests && maxReceiveWorkRequests == o.maxReceiveWorkRequests
                && maxSge == o.maxSge && maxInlineData == o.maxInlineData
                && completionQueueSize == o.completionQueueSize && backlog == o.backlog
                && listenerWait.equals(o.listenerWait) && separateCompletionQueues == o.separateCompletionQueues
                && completionChannel == o.completionChannel;
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(privateData) * 31 + Objects.hash(responderResources, initiatorDepth,
                retryCount, rnrRetryCount, resolveTimeout, connectTimeout, maxSendWorkRequests,
                maxReceiveWorkRequests, maxSge, maxInlineData, completionQueueSize, backlog, listenerWait,
                separateCompletionQueues, completionChannel);
    }

    @Override
    public String toString() {
        return "ConnectionOptions[privateData=" + privateData.length + " bytes, responderResources=" + responderResources
                + ", initiatorDepth=" + initiatorDepth + ", retryCount=" + retryCount + ", rnrRetryCount="
                + rnrRetryCount + ", resolveTimeout=" + resolveTimeout + ", connectTimeout=" + connectTimeout
                + ", queues=" + maxSendWorkRequests + "/" + maxReceiveWorkRequests + ", maxSge=" + maxSge
                + ", maxInlineData=" + maxInlineData + ", cq=" + completionQueueSize + ", backlog=" + backlog
                + ", listenerWait=" + listenerWait + ", separateCompletionQueues=" + separateCompletionQueues
                + ", completionChannel=" + completionChannel + "]";
    }

    /** Builds {@link ConnectionOptions}; every value is checked by {@link #build()}. */
    public static final class Builder {
        private byte[] privateData = new byte[0];
        /** Set by {@link #forConnecting()}: private data is then checked against a connect's limit as it is set. */
        private boolean connecting;
        private int responderResources = 1;
        private int initiatorDepth = 1;
        private int retryCount = DEFAULT_RETRY_COUNT;
        private int rnrRetryCount = 7;
        private Duration resolveTimeout = Duration.ofSeconds(2);
        private Duration connectTimeout = Duration.ofSeconds(10);
        private int maxSendWorkRequests = 64;
        private int maxReceiveWorkRequests = 64;
        private int maxSge = 1;
        private int maxInlineData = 0;
        private int completionQueueSize = 256;
        private int backlog = 16;
        private Duration listenerWait = Duration.ZERO;
        private boolean separateCompletionQueues;
        private boolean completionChannel;

        private Builder() {}

        /**
         * Bytes sent with the connect or accept (copied); limits in {@link ConnectionOptions}.
         *
         * @param data the bytes to send (copied)
         * @return this builder
         */
        public Builder privateData(byte[] data) {
            Objects.requireNonNull(data, "privateData");
            if (connecting) {
                checkPrivateData("rdma_connect", data, MAX_CONNECT_PRIVATE_DATA);
            }
            this.privateData = data.clone();
            return this;
        }

        /**
         * Says these options are for {@code rdma_connect} of a connected (RC) identifier, such as
         * {@link RdmaConnection#connect}: private data over {@value #MAX_CONNECT_PRIVATE_DATA} bytes
         * is then refused here, when it is set (or now, if set already), not at the connect. Without
         * it, {@link #build()} accepts up to {@value #MAX_ACCEPT_PRIVATE_DATA} bytes (an accept's
         * limit) and each call checks its own limit before any native call.
         *
         * @return this builder
         * @throws IllegalArgumentException if the private data already set is over a connect's limit
         */
        public Builder forConnecting() {
            checkPrivateData("rdma_connect", privateData, MAX_CONNECT_PRIVATE_DATA);
            this.connecting = true;
            return this;
        }

        /**
         * {@code responder_resources}, 0..255 (at most the device's {@code max_qp_rd_atom}).
         *
         * @param value the responder resources, 0 to 255
         * @return this builder
         */
        public Builder responderResources(int value) {
            this.responderResources = value;
            return this;
        }

        /**
         * {@code initiator_depth}, 0..255 (at most the device's {@code max_qp_init_rd_atom}).
         *
         * @param value the initiator depth, 0 to 255
         * @return this builder
         */
        public Builder initiatorDepth(int value) {
            this.initiatorDepth = value;
            return this;
        }

        /**
         * {@code retry_count}, 0..7; 7 retries for ever on rxe (a dead peer is never detected).
         *
         * @param value the transport retry count, 0 to 7
         * @return this builder
         */
        public Builder retryCount(int value) {
            this.retryCount = value;
            return this;
        }

        /**
         * {@code rnr_retry_count}, 0..7; 7 retries for ever.
         *
         * @param value the receiver-not-ready retry count, 0 to 7 (7: for ever)
         * @return this builder
         */
        public Builder rnrRetryCount(int value) {
            this.rnrRetryCount = value;
            return this;
        }

        /**
         * Limit of address resolution and of route resolution, each (default 2 s).
         *
         * @param value the longest each resolution may take
         * @return this builder
         */
        public Builder resolveTimeout(Duration value) {
            this.resolveTimeout = value;
            return this;
        }

        /**
         * Limit of a connect or accept until ESTABLISHED, and of a disconnect (default 10 s).
         *
         * @param value the longest a connect, accept or disconnect may take
         * @return this builder
         */
        public Builder connectTimeout(Duration value) {
            this.connectTimeout = value;
            return this;
        }

        /**
         * Send and receive queue depths of the created queue pair (default 64 each).
         *
         * @param send the send queue's depth (work requests)
         * @param receive the receive queue's depth (work requests)
         * @return this builder
         */
        public Builder queueDepth(int send, int receive) {
            this.maxSendWorkRequests = send;
            this.maxReceiveWorkRequests = receive;
            return this;
        }

        /**
         * Scatter/gather entries per request (default 1).
         *
         * @param value scatter/gather entries per send and per receive request
         * @return this builder
         */
        public Builder maxSge(int value) {
            this.maxSge = value;
            return this;
        }

        /**
         * Inline bytes per send (default 0).
         *
         * @param value the most bytes a send may carry inline
         * @return this builder
         */
        public Builder maxInlineData(int value) {
            this.maxInlineData = value;
            return this;
        }

        /**
         * Entries of the created completion queue (default 256).
         *
         * @param value the completion queue's entries
         * @return this builder
         */
        public Builder completionQueueSize(int value) {
            this.completionQueueSize = value;
            return this;
        }

        /**
         * Pending requests a listener queues (default 16).
         *
         * @param value the most connection requests queued before accept
         * @return this builder
         */
        public Builder backlog(int value) {
            this.backlog = value;
            return this;
        }

        /**
         * How long {@link RdmaConnection#connect} tries again while nothing listens on the port
         * yet (on InfiniBand and RoCE the connect is rejected with reason 8,
         * {@link ConnectionRejectedException#rejectedByPeer()} false; on iWARP {@code rdma_connect}
         * itself fails with {@code ECONNREFUSED}, a {@link ConnectionException}): a new identifier every try, a short pause between tries, and no try begins after
         * this deadline of the whole call (the last try's waits are cut to it). A rejection by the
         * peer's application is never retried. {@link Duration#ZERO} (the default): one try.
         *
         * @param value the deadline of the whole connect, zero or positive
         * @return this builder
         */
        public Builder listenerWait(Duration value) {
            this.listenerWait = value;
            return this;
        }

        /**
         * Whether the high-level classes make two completion queues, one for sends and one for
         * receives ({@link RdmaConnection#sendCompletionQueue()},
         * {@link RdmaConnection#receiveCompletionQueue()}), each of {@code completionQueueSize}
         * entries (default false: one for both).
         *
         * @param value true for two completion queues
         * @return this builder
         */
        public Builder separateCompletionQueues(boolean value) {
            this.separateCompletionQueues = value;
            return this;
        }

        /**
         * Whether the high-level classes make their completion queue(s) on a completion channel of
         * their own ({@code ibv_create_comp_channel}, vector 0; default false), so that the
         * owner can wait for completions with {@code CompletionQueue.awaitCompletions} instead of
         * polling; the channel closes with the connection.
         *
         * @param value true for a completion channel
         * @return this builder
         */
        public Builder completionChannel(boolean value) {
            this.completionChannel = value;
            return this;
        }

        /**
         * The options, every field checked.
         *
         * @return the options, every field checked.
         */
        public ConnectionOptions build() {
            return new ConnectionOptions(privateData, responderResources, initiatorDepth, retryCount, rnrRetryCount,
                    resolveTimeout, connectTimeout, maxSendWorkRequests, maxReceiveWorkRequests, maxSge,
                    maxInlineData, completionQueueSize, backlog, listenerWait, separateCompletionQueues,
                    completionChannel);
        }
    }
}
