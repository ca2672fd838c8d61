package dev.panamaverbs.testkit;

import dev.panamaverbs.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.Mtu;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QpType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.RemoteEndpoint;
import dev.panamaverbs.Verbs;
import java.util.EnumSet;
import java.util.Objects;

/**
 * Two RC (or UC) queue pairs on one device, connected to each other and in RTS: the smallest
 * setup that moves data over a real device. Each side has its own completion queue (sends and
 * receives of a side complete there) and its own {@link RegisteredBuffer} with full access.
 *
 * <pre>{@code
 * try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
 *     pair.first().postSend(...);          // to pair.second()
 *     CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
 * }
 * }</pre>
 * Closing closes the context, which closes everything else in the order the kernel accepts.
 */
public final class RcLoopbackPair implements AutoCloseable {
    /** Buffer size of each side unless asked otherwise. */
    public static final int DEFAULT_BUFFER_SIZE = 64 * 1024;
    /** The first send PSN of each side (the peer's receive PSN). */
    static final int FIRST_PSN = 0x1234;

    private final Context context;
    private final ProtectionDomain protectionDomain;
    private final CompletionQueue firstQueue;
    private final CompletionQueue secondQueue;
    private final QueuePair first;
    private final QueuePair second;
    private final RegisteredBuffer firstBuffer;
    private final RegisteredBuffer secondBuffer;
    private final Completions completions = Completions.allocate(16);

    private RcLoopbackPair(Context context, ProtectionDomain pd, CompletionQueue firstQueue, CompletionQueue secondQueue,
                           QueuePair first, QueuePair second, RegisteredBuffer firstBuffer, RegisteredBuffer secondBuffer) {
        this.context = context;
        this.protectionDomain = pd;
        this.firstQueue = firstQueue;
        this.secondQueue = secondQueue;
        this.first = first;
        this.second = second;
        this.firstBuffer = firstBuffer;
        this.secondBuffer = secondBuffer;
    }

    /** An RC pair on the test device with the default sizes. */
    public static RcLoopbackPair open(TestDevice device) {
        return open(device, QpType.RC, DEFAULT_BUFFER_SIZE, 0);
    }

    /**
     * A connected pair of {@code type} (RC or UC) on {@code device}, with buffers of
     * {@code bufferSize} bytes and {@code maxInlineData} inline bytes per send.
     */
    public static RcLoopbackPair open(TestDevice device, QpType type, int bufferSize, int maxInlineData) {
        Objects.requireNonNull(device, "device");
        if (type != QpType.RC && type != QpType.UC) {
            throw new IllegalArgumentException("a loopback pair is RC or UC, not " + type);
        }
        Context context = Verbs.device(device.name())
                .orElseThrow(() -> new IllegalStateException("no RDMA device named " + device.name()))
                .open();
        try {
            LoopbackEndpoints endpoints = LoopbackEndpoints.of(context, device.port(), device.gidIndex());
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionQueue firstQueue = context.createCompletionQueue(256);
            CompletionQueue secondQueue = context.createCompletionQueue(256);
            QueuePair first = pd.createQueuePair(options(type, firstQueue, maxInlineData));
            QueuePair second = pd.createQueuePair(options(type, secondQueue, maxInlineData));
            EnumSet<AccessFlag> access = type == QpType.RC
                    ? EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC)
                    : EnumSet.of(AccessFlag.REMOTE_WRITE);
            connect(first, second, endpoints, access);
            connect(second, first, endpoints, access);
            first.toRts(FIRST_PSN);
            second.toRts(FIRST_PSN);
            RegisteredBuffer firstBuffer = RegisteredBuffer.allocate(pd, bufferSize);
            RegisteredBuffer secondBuffer = RegisteredBuffer.allocate(pd, bufferSize);
            return new RcLoopbackPair(context, pd, firstQueue, secondQueue, first, second, firstBuffer, secondBuffer);
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    private static QueuePairOptions options(QpType type, CompletionQueue queue, int maxInlineData) {
        return QueuePairOptions.builder(type, queue)
                .maxSendWorkRequests(64).maxReceiveWorkRequests(64)
                .maxSendSge(4).maxReceiveSge(4).maxInlineData(maxInlineData)
                .build();
    }

    /** RESET -> INIT -> RTR of {@code local}, pointed at {@code remote}. */
    private static void connect(QueuePair local, QueuePair remote, LoopbackEndpoints endpoints, EnumSet<AccessFlag> access) {
        if (local.state() == dev.panamaverbs.QpState.RESET) {
            local.toInit(endpoints.port(), 0, access);
        }
        Mtu mtu = endpoints.portAttributes().activeMtu();
        RemoteEndpoint peer = endpoints.gid() != null
                ? RemoteEndpoint.global(remote.number(), FIRST_PSN, endpoints.gid(), endpoints.gidIndex(), mtu)
                : RemoteEndpoint.local(remote.number(), FIRST_PSN, endpoints.lid(), mtu);
        local.toRtr(peer);
    }

    /** The device context (closing it closes everything). */
    public Context context() {
        return context;
    }

    /** The protection domain of both queue pairs and buffers. */
    public ProtectionDomain protectionDomain() {
        return protectionDomain;
    }

    /** The first queue pair, connected to {@link #second()}. */
    public QueuePair first() {
        return first;
    }

    /** The second queue pair, connected to {@link #first()}. */
    public QueuePair second() {
        return second;
    }

    /** Where the first queue pair's sends and receives complete. */
    public CompletionQueue firstQueue() {
        return firstQueue;
    }

    /** Where the second queue pair's sends and receives complete. */
    public CompletionQueue secondQueue() {
        return secondQueue;
    }

    /** The first side's registered buffer. */
    public RegisteredBuffer firstBuffer() {
        return firstBuffer;
    }

    /** The second side's registered buffer. */
    public RegisteredBuffer secondBuffer() {
        return secondBuffer;
    }

    /** A 16-entry completion batch for polling either queue (one poller at a time). */
    public Completions completions() {
        return completions;
    }

    /** Closes the buffers and the context (which closes queue pairs, queues and the domain first). */
    @Override
    public void close() {
        try {
            firstBuffer.close();
            secondBuffer.close();
        } finally {
            context.close();
        }
    }
}
