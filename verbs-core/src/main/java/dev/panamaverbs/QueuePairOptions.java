package dev.panamaverbs;

import dev.panamaverbs.values.QueuePairCapabilities;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.WorkRequestOpcode;
import static dev.panamaverbs.ffm.VerbsConstants.*;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What {@link ProtectionDomain#createQueuePair(QueuePairOptions)} creates (C
 * {@code struct ibv_qp_init_attr}, or {@code struct ibv_qp_init_attr_ex} when
 * {@link #needsExtendedCreate()}): the transport, the completion queues, an optional shared
 * receive queue, the queue sizes and whether every send is signaled. Immutable; build one with
 * {@link #builder(QueuePairType, CompletionQueue)}. Defaults: 128 send and receive work requests, one
 * SGE each way, no inline data, sends signaled only when their request asks.
 *
 * <p>Sizes are checked against the device ({@code ibv_query_device}'s {@code max_qp_wr},
 * {@code max_sge}) when the queue pair is created, before {@code ibv_create_qp} runs.
 */
public final class QueuePairOptions {
    /** Queue depth used when the caller sets none. */
    public static final int DEFAULT_WORK_REQUESTS = 128;

    private final QueuePairType type;
    private final CompletionQueue sendCompletionQueue;
    private final CompletionQueue receiveCompletionQueue;
    private final SharedReceiveQueue sharedReceiveQueue;
    private final QueuePairCapabilities capabilities;
    private final boolean signalAll;
    private final Set<WorkRequestOpcode> extendedSendOperations;
    private final boolean forceExtendedCreate;

    private QueuePairOptions(Builder builder) {
        this.type = builder.type;
        this.sendCompletionQueue = builder.sendCompletionQueue;
        this.receiveCompletionQueue = builder.receiveCompletionQueue;
        this.sharedReceiveQueue = builder.sharedReceiveQueue;
        // With an SRQ the receive queue of the QP itself is unused: the verbs ignore its sizes.
        this.capabilities = new QueuePairCapabilities(
                builder.maxSendWorkRequests,
                builder.sharedReceiveQueue == null ? builder.maxReceiveWorkRequests : 0,
                builder.maxSendSge,
                builder.sharedReceiveQueue == null ? builder.maxReceiveSge : 0,
                builder.maxInlineData);
        this.signalAll = builder.signalAll;
        this.extendedSendOperations = Set.copyOf(builder.extendedSendOperations);
        this.forceExtendedCreate = builder.forceExtendedCreate;
    }

    /**
     * Options for a queue pair of {@code type} (RC, UC, UD or RAW_PACKET) completing sends and receives on the given queues.
     *
     * @param type the queue pair's transport
     * @param sendCompletionQueue the send completion queue
     * @param receiveCompletionQueue the receive completion queue
     * @return this builder
     */
    public static Builder builder(QueuePairType type, CompletionQueue sendCompletionQueue, CompletionQueue receiveCompletionQueue) {
        return new Builder(type).sendCompletionQueue(sendCompletionQueue).receiveCompletionQueue(receiveCompletionQueue);
    }

    /**
     * Options for a queue pair of {@code type} whose sends and receives complete on one queue.
     *
     * @param type the queue pair's transport
     * @param completionQueue the completion queue
     * @return this builder
     */
    public static Builder builder(QueuePairType type, CompletionQueue completionQueue) {
        return builder(type, completionQueue, completionQueue);
    }

    /**
     * Options for a queue pair of {@code type}; set its completion queues before {@link Builder#build()}.
     *
     * @param type the queue pair's transport
     * @return this builder
     */
    public static Builder builder(QueuePairType type) {
        return new Builder(type);
    }

    /**
     * {@code qp_type}.
     *
     * @return {@code qp_type}
     */
    public QueuePairType type() {
        return type;
    }

    /**
     * {@code send_cq}.
     *
     * @return {@code send_cq}
     */
    public CompletionQueue sendCompletionQueue() {
        return sendCompletionQueue;
    }

    /**
     * {@code recv_cq}.
     *
     * @return {@code recv_cq}
     */
    public CompletionQueue receiveCompletionQueue() {
        return receiveCompletionQueue;
    }

    /**
     * {@code srq}, when receives come from a shared receive queue.
     *
     * @return {@code srq}, when receives come from a shared receive queue
     */
    public Optional<SharedReceiveQueue> sharedReceiveQueue() {
        return Optional.ofNullable(sharedReceiveQueue);
    }

    /**
     * The requested {@code cap} (minimums; receive sizes are 0 with a shared receive queue).
     *
     * @return the requested {@code cap}
     */
    public QueuePairCapabilities capabilities() {
        return capabilities;
    }

    /**
     * {@code sq_sig_all}: every send work request completes with a completion, signaled or not.
     *
     * @return {@code true} if so
     */
    public boolean signalAll() {
        return signalAll;
    }

    /**
     * {@code send_ops_flags} of {@code ibv_create_qp_ex}: the operations the extended
     * ({@code ibv_wr_*}) post API, {@link SendBatch}, may use on the queue pair. Empty for plain
     * queue pairs (which {@link SendBatch} refuses).
     *
     * @return {@code send_ops_flags} of {@code ibv_create_qp_ex}: the operations the extended ({@code ibv_wr_*}) post API of this queue pair may use
     */
    public Set<WorkRequestOpcode> extendedSendOperations() {
        return extendedSendOperations;
    }

    /**
     * True when creation must go through {@code ibv_create_qp_ex} (extended send operations, or asked for).
     *
     * @return true when creation must go through {@code ibv_create_qp_ex} (extended send operations, or asked for)
     */
    public boolean needsExtendedCreate() {
        return forceExtendedCreate || !extendedSendOperations.isEmpty();
    }

    /** The {@code IBV_QP_EX_WITH_*} bits of {@link #extendedSendOperations()}. */
    long sendOpsFlags() {
        long flags = 0;
        for (WorkRequestOpcode opcode : extendedSendOperations) {
            flags |= sendOpsFlag(opcode);
        }
        return flags;
    }

    /** The {@code IBV_QP_EX_WITH_*} bit for an opcode. */
    static long sendOpsFlag(WorkRequestOpcode opcode) {
        return switch (opcode) {
            case RDMA_WRITE -> IBV_QP_EX_WITH_RDMA_WRITE;
            case RDMA_WRITE_WITH_IMM -> IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
            case SEND -> IBV_QP_EX_WITH_SEND;
            case SEND_WITH_IMM -> IBV_QP_EX_WITH_SEND_WITH_IMM;
            case RDMA_READ -> IBV_QP_EX_WITH_RDMA_READ;
            case ATOMIC_CMP_AND_SWP -> IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP;
            case ATOMIC_FETCH_AND_ADD -> IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
            case LOCAL_INV -> IBV_QP_EX_WITH_LOCAL_INV;
            case BIND_MW -> IBV_QP_EX_WITH_BIND_MW;
            case SEND_WITH_INV -> IBV_QP_EX_WITH_SEND_WITH_INV;
            case TSO -> IBV_QP_EX_WITH_TSO;
            case ATOMIC_WRITE -> IBV_QP_EX_WITH_ATOMIC_WRITE;
            case DRIVER1 -> throw new IllegalArgumentException(
                    "ibv_create_qp_ex: DRIVER1 has no send_ops_flags bit");
        };
    }

    @Override
    public String toString() {
        return "QueuePairOptions[" + type + ", " + capabilities + (signalAll ? ", signalAll" : "")
                + (sharedReceiveQueue != null ? ", srq" : "")
                + (needsExtendedCreate() ? ", extended " + extendedSendOperations : "") + "]";
    }

    /** Builds {@link QueuePairOptions}; every setter checks its argument at once. */
    public static final class Builder {
        private final QueuePairType type;
        private CompletionQueue sendCompletionQueue;
        private CompletionQueue receiveCompletionQueue;
        private SharedReceiveQueue sharedReceiveQueue;
        private int maxSendWorkRequests = DEFAULT_WORK_REQUESTS;
        private int maxReceiveWorkRequests = DEFAULT_WORK_REQUESTS;
        private int maxSendSge = 1;
        private int maxReceiveSge = 1;
        private int maxInlineData;
        private boolean signalAll;
        private final Set<WorkRequestOpcode> extendedSendOperations = EnumSet.noneOf(WorkRequestOpcode.class);
        private boolean forceExtendedCreate;

        private Builder(QueuePairType type) {
            Objects.requireNonNull(type, "ibv_create_qp: qp_type");
            if (type != QueuePairType.RC && type != QueuePairType.UC && type != QueuePairType.UD && type != QueuePairType.RAW_PACKET) {
                throw new IllegalArgumentException("ibv_create_qp: qp_type must be RC, UC, UD or RAW_PACKET, got " + type);
            }
            this.type = type;
        }

        /**
         * {@code send_cq}: where send completions go.
         *
         * @param queue the completion queue for send completions
         * @return this builder
         */
        public Builder sendCompletionQueue(CompletionQueue queue) {
            this.sendCompletionQueue = Objects.requireNonNull(queue, "ibv_create_qp: send_cq");
            return this;
        }

        /**
         * {@code recv_cq}: where receive completions go.
         *
         * @param queue the completion queue for receive completions
         * @return this builder
         */
        public Builder receiveCompletionQueue(CompletionQueue queue) {
            this.receiveCompletionQueue = Objects.requireNonNull(queue, "ibv_create_qp: recv_cq");
            return this;
        }

        /**
         * One queue for both {@code send_cq} and {@code recv_cq}.
         *
         * @param queue the completion queue for both
         * @return this builder
         */
        public Builder completionQueue(CompletionQueue queue) {
            return sendCompletionQueue(queue).receiveCompletionQueue(queue);
        }

        /**
         * {@code cap.max_send_wr} (at least 1).
         *
         * @param count how many
         * @return this builder
         */
        public Builder maxSendWorkRequests(int count) {
            this.maxSendWorkRequests = atLeast("max_send_wr", count, 1);
            return this;
        }

        /**
         * {@code cap.max_recv_wr} (at least 1; ignored with a shared receive queue).
         *
         * @param count how many
         * @return this builder
         */
        public Builder maxReceiveWorkRequests(int count) {
            this.maxReceiveWorkRequests = atLeast("max_recv_wr", count, 1);
            return this;
        }

        /**
         * {@code cap.max_send_sge} (at least 1).
         *
         * @param count how many
         * @return this builder
         */
        public Builder maxSendSge(int count) {
            this.maxSendSge = atLeast("max_send_sge", count, 1);
            return this;
        }

        /**
         * {@code cap.max_recv_sge} (at least 1; ignored with a shared receive queue).
         *
         * @param count how many
         * @return this builder
         */
        public Builder maxReceiveSge(int count) {
            this.maxReceiveSge = atLeast("max_recv_sge", count, 1);
            return this;
        }

        /**
         * {@code cap.max_inline_data} in bytes (0: no inline sends).
         *
         * @param bytes the most bytes a send may carry inline
         * @return this builder
         */
        public Builder maxInlineData(int bytes) {
            this.maxInlineData = atLeast("max_inline_data", bytes, 0);
            return this;
        }

        /**
         * All five sizes at once.
         *
         * @param capabilities the queue depths, scatter/gather entries and inline size
         * @return this builder
         */
        public Builder capabilities(QueuePairCapabilities capabilities) {
            maxSendWorkRequests(capabilities.maxSendWorkRequests());
            maxReceiveWorkRequests(Math.max(1, capabilities.maxReceiveWorkRequests()));
            maxSendSge(capabilities.maxSendSge());
            maxReceiveSge(Math.max(1, capabilities.maxReceiveSge()));
            return maxInlineData(capabilities.maxInlineData());
        }

        /**
         * {@code srq}: receives come from this shared receive queue (RC and UD; UC cannot use one).
         *
         * @param srq the shared receive queue
         * @return this builder
         */
        public Builder sharedReceiveQueue(SharedReceiveQueue srq) {
            Objects.requireNonNull(srq, "ibv_create_qp: srq");
            if (type == QueuePairType.UC) {
                throw new IllegalArgumentException("ibv_create_qp: a UC queue pair cannot use a shared receive queue");
            }
            this.sharedReceiveQueue = srq;
            return this;
        }

        /**
         * {@code sq_sig_all}: every send completes with a completion, whatever its flags say.
         *
         * @param signalAll true to request a completion for every send
         * @return this builder
         */
        public Builder signalAll(boolean signalAll) {
            this.signalAll = signalAll;
            return this;
        }

        /**
         * Creates through {@code ibv_create_qp_ex} with {@code send_ops_flags} for these
         * operations, enabling the extended {@code ibv_wr_*} post API: {@link SendBatch} posts
         * exactly these opcodes (others are refused before any native call). Each must be valid
         * for the transport; a provider that cannot do one refuses the creation (rxe answers
         * EOPNOTSUPP, a {@link VerbsUnsupportedException}). {@link QueuePair#postSend} keeps
         * working on such a queue pair.
         *
         * @param operations the opcodes the extended post API may post
         * @return this builder
         */
        public Builder extendedSendOperations(Set<WorkRequestOpcode> operations) {
            for (WorkRequestOpcode opcode : operations) {
                sendOpsFlag(opcode);
                if (!SendOperations.isAllowed(type, opcode)) {
                    throw new IllegalArgumentException("ibv_create_qp_ex: " + opcode + " is not a " + type + " operation");
                }
            }
            this.extendedSendOperations.clear();
            this.extendedSendOperations.addAll(operations);
            return this;
        }

        /**
         * Creates through {@code ibv_create_qp_ex} even without extended operations.
         *
         * @param force true to force it
         * @return this builder
         */
        public Builder extendedCreate(boolean force) {
            this.forceExtendedCreate = force;
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalStateException if a completion queue is not set
         * @return the options
         */
        public QueuePairOptions build() {
            if (sendCompletionQueue == null || receiveCompletionQueue == null) {
                throw new IllegalStateException("ibv_create_qp: " + (sendCompletionQueue == null ? "send_cq" : "recv_cq")
                        + " is not set: a queue pair needs both completion queues");
            }
            return new QueuePairOptions(this);
        }

        private static int atLeast(String field, int value, int min) {
            if (value < min) {
                throw new IllegalArgumentException("ibv_create_qp: " + field + " must be at least " + min + ", got " + value);
            }
            return value;
        }
    }

    /** {@code pd} first, then each distinct queue these options name: what a queue pair of them depends on. */
    VerbsResource[] dependencies(VerbsResource pd) {
        List<VerbsResource> list = new ArrayList<>(4);
        list.add(pd);
        list.add(sendCompletionQueue());
        if (receiveCompletionQueue() != sendCompletionQueue()) {
            list.add(receiveCompletionQueue());
        }
        sharedReceiveQueue().ifPresent(list::add);
        return list.toArray(VerbsResource[]::new);
    }
}
