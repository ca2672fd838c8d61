package dev.panamaverbs.testkit;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.Verbs;
import java.util.Objects;
import java.util.function.Function;

/**
 * What {@link RcLoopbackPair} and {@link UdPair} share: on one context, a protection domain, two
 * queue pairs that each complete on their own completion queue, a {@link RegisteredBuffer} per
 * side and a completion batch; created in that order, closed again if a step fails, and the
 * accessors. The subclass says how its queue pairs are created and brought to RTS.
 *
 * <p>Closing closes the buffers, then the context (which closes everything else in the order the
 * kernel accepts).
 */
abstract class LoopbackFixture implements AutoCloseable {
    /** Entries of each side's completion queue. */
    private static final int QUEUE_ENTRIES = 256;
    /** Entries of the completion batch. */
    private static final int BATCH = 16;

    /** Brings the two new queue pairs to RTS, each addressing the other through {@code endpoints}. */
    @FunctionalInterface
    interface Activation {
        void activate(QueuePair first, QueuePair second, LoopbackEndpoints endpoints);
    }

    private final Context context;
    private final LoopbackEndpoints endpoints;
    private final ProtectionDomain protectionDomain;
    private final CompletionQueue firstQueue;
    private final CompletionQueue secondQueue;
    private final QueuePair first;
    private final QueuePair second;
    private final RegisteredBuffer firstBuffer;
    private final RegisteredBuffer secondBuffer;
    private final Completions completions = Completions.allocate(BATCH);

    /**
     * Creates everything on {@code context} (the port and GID index of {@code device}): queue
     * pairs with {@code options(queue)}, activated by {@code activation}, then buffers of
     * {@code bufferSize} bytes. If a step fails, closes what was created and the context.
     */
    LoopbackFixture(Context context, TestDevice device, Function<CompletionQueue, QueuePairOptions> options,
                    Activation activation, int bufferSize) {
        this.context = context;
        RegisteredBuffer createdFirstBuffer = null;
        RegisteredBuffer createdSecondBuffer = null;
        try {
            endpoints = LoopbackEndpoints.of(context, device.port(), device.gidIndex());
            protectionDomain = context.allocateProtectionDomain();
            firstQueue = context.createCompletionQueue(QUEUE_ENTRIES);
            secondQueue = context.createCompletionQueue(QUEUE_ENTRIES);
            first = protectionDomain.createQueuePair(options.apply(firstQueue));
            second = protectionDomain.createQueuePair(options.apply(secondQueue));
            activation.activate(first, second, endpoints);
            createdFirstBuffer = RegisteredBuffer.allocate(protectionDomain, bufferSize);
            createdSecondBuffer = RegisteredBuffer.allocate(protectionDomain, bufferSize);
        } catch (RuntimeException e) {
            closeAll(context, createdFirstBuffer, createdSecondBuffer);
            throw e;
        }
        firstBuffer = createdFirstBuffer;
        secondBuffer = createdSecondBuffer;
    }

    /** Opens the context of {@code device} (by name). */
    static Context openContext(TestDevice device) {
        Objects.requireNonNull(device, "device");
        return Verbs.device(device.name())
                .orElseThrow(() -> new IllegalStateException("no RDMA device named " + device.name()))
                .open();
    }

    /** How the two queue pairs address each other. */
    LoopbackEndpoints endpoints() {
        return endpoints;
    }

    /** The device context (closing it closes everything). */
    public Context context() {
        return context;
    }

    /** The protection domain of both queue pairs and buffers (and anything else the fixture made). */
    public ProtectionDomain protectionDomain() {
        return protectionDomain;
    }

    /** The first queue pair. */
    public QueuePair first() {
        return first;
    }

    /** The second queue pair. */
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
        closeAll(context, firstBuffer, secondBuffer);
    }

    /** Closes the buffers that exist, then the context. */
    private static void closeAll(Context context, RegisteredBuffer firstBuffer, RegisteredBuffer secondBuffer) {
        try {
            if (firstBuffer != null) {
                firstBuffer.close();
            }
            if (secondBuffer != null) {
                secondBuffer.close();
            }
        } finally {
            context.close();
        }
    }
}
