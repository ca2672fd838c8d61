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
 * <p>A fixture either opens its own context (closing the fixture closes it, which closes
 * everything else in the order the kernel accepts) or is built on a caller's context, such as the
 * one the {@link RdmaDeviceExtension} injects: then closing the fixture closes what it created and
 * leaves the context open to its owner.
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
    private final boolean ownsContext;
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
     * {@code bufferSize} bytes. If a step fails, closes what was created as {@link #close()} does.
     * First, a device without {@code needed} skips the test ({@link DeviceCapability#require}).
     *
     * @param ownsContext whether the fixture opened {@code context} (and closes it)
     * @param needed what the fixture's connection needs of the device
     */
    LoopbackFixture(Context context, boolean ownsContext, TestDevice device, DeviceCapability needed,
                    Function<CompletionQueue, QueuePairOptions> options, Activation activation, int bufferSize) {
        this.context = context;
        this.ownsContext = ownsContext;
        ProtectionDomain pd = null;
        CompletionQueue queue1 = null;
        CompletionQueue queue2 = null;
        RegisteredBuffer buffer1 = null;
        RegisteredBuffer buffer2 = null;
        try {
            needed.require(context);
            endpoints = LoopbackEndpoints.of(context, device.port(), device.gidIndex());
            pd = context.allocateProtectionDomain();
            queue1 = context.createCompletionQueue(QUEUE_ENTRIES);
            queue2 = context.createCompletionQueue(QUEUE_ENTRIES);
            first = pd.createQueuePair(options.apply(queue1));
            second = pd.createQueuePair(options.apply(queue2));
            activation.activate(first, second, endpoints);
            buffer1 = RegisteredBuffer.allocate(pd, bufferSize);
            buffer2 = RegisteredBuffer.allocate(pd, bufferSize);
        } catch (RuntimeException e) {
            closeAll(context, ownsContext, pd, queue1, queue2, buffer1, buffer2);
            throw e;
        }
        protectionDomain = pd;
        firstQueue = queue1;
        secondQueue = queue2;
        firstBuffer = buffer1;
        secondBuffer = buffer2;
    }

    /**
     * Checks that the caller's {@code context} is open on {@code device}.
     *
     * @throws IllegalArgumentException if it belongs to another device
     */
    static Context requireContextOf(TestDevice device, Context context) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(device, "device");
        if (!context.device().name().equals(device.name())) {
            throw new IllegalArgumentException(context + " is not a context of the test device " + device.name());
        }
        return context;
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

    /**
     * The device context (closing it closes everything); the caller's, if the fixture was built on one.
     *
     * @return the device context (closing it closes everything)
     */
    public Context context() {
        return context;
    }

    /**
     * The protection domain of both queue pairs and buffers (and anything else the fixture made).
     *
     * @return the protection domain of both queue pairs and buffers (and anything else the fixture made)
     */
    public ProtectionDomain protectionDomain() {
        return protectionDomain;
    }

    /**
     * The first queue pair.
     *
     * @return the first queue pair
     */
    public QueuePair first() {
        return first;
    }

    /**
     * The second queue pair.
     *
     * @return the second queue pair
     */
    public QueuePair second() {
        return second;
    }

    /**
     * Where the first queue pair's sends and receives complete.
     *
     * @return where the first queue pair's sends and receives complete
     */
    public CompletionQueue firstQueue() {
        return firstQueue;
    }

    /**
     * Where the second queue pair's sends and receives complete.
     *
     * @return where the second queue pair's sends and receives complete
     */
    public CompletionQueue secondQueue() {
        return secondQueue;
    }

    /**
     * The first side's registered buffer.
     *
     * @return the first side's registered buffer
     */
    public RegisteredBuffer firstBuffer() {
        return firstBuffer;
    }

    /**
     * The second side's registered buffer.
     *
     * @return the second side's registered buffer
     */
    public RegisteredBuffer secondBuffer() {
        return secondBuffer;
    }

    /**
     * A 16-entry completion batch for polling either queue (one poller at a time).
     *
     * @return a 16-entry completion batch for polling either queue (one poller at a time)
     */
    public Completions completions() {
        return completions;
    }

    /**
     * Closes the buffers, then the context the fixture opened (which closes queue pairs, queues and
     * the domain first). On a caller's context, closes the domain (its queue pairs and whatever
     * else the fixture made in it go first) and the queues instead, and leaves the context open.
     */
    @Override
    public void close() {
        closeAll(context, ownsContext, protectionDomain, firstQueue, secondQueue, firstBuffer, secondBuffer);
    }

    /** {@link #close()} for the resources that exist ({@code null} for those not yet created). */
    private static void closeAll(Context context, boolean ownsContext, ProtectionDomain pd, CompletionQueue queue1,
                                 CompletionQueue queue2, RegisteredBuffer buffer1, RegisteredBuffer buffer2) {
        try {
            if (buffer1 != null) {
                buffer1.close();
            }
            if (buffer2 != null) {
                buffer2.close();
            }
        } finally {
            if (ownsContext) {
                context.close();
            } else {
                closeCreatedOn(pd, queue1, queue2);
            }
        }
    }

    private static void closeCreatedOn(ProtectionDomain pd, CompletionQueue queue1, CompletionQueue queue2) {
        try {
            if (pd != null) {
                pd.close();
            }
        } finally {
            if (queue1 != null) {
                queue1.close();
            }
            if (queue2 != null) {
                queue2.close();
            }
        }
    }
}
