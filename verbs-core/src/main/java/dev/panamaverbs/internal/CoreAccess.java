package dev.panamaverbs.internal;

import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.values.QueuePairState;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The one way other packages of this module reach the resource tree's internals (the native
 * handle, use counting, registration) without making them public API. {@link Verbs} installs the
 * implementation when its class initialises, and {@link #get()} initialises it first. The package
 * is not exported, so only this module sees it.
 */
public abstract class CoreAccess {
    private static volatile CoreAccess installed;

    /** Called once, by {@link Verbs}'s static initialiser. */
    public static void install(CoreAccess access) {
        if (installed != null) {
            throw new IllegalStateException("CoreAccess is installed already");
        }
        installed = access;
    }

    /** The installed implementation (initialising {@link Verbs} first if need be). */
    public static CoreAccess get() {
        CoreAccess access = installed;
        if (access == null) {
            try {
                Class.forName(Verbs.class.getName(), true, Verbs.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError(e);
            }
            access = installed;
        }
        return access;
    }

    /** The resource's native object, unscoped, for passing to native calls. */
    public abstract MemorySegment handleSegment(VerbsResource resource);

    /** The address of the resource's native object. */
    public abstract long handleAddress(VerbsResource resource);

    /** Marks a use in progress: close waits for it; throws when the resource is closed. */
    public abstract void acquire(VerbsResource resource);

    /** Ends a use begun with {@link #acquire}. */
    public abstract void release(VerbsResource resource);

    /** Adds a just-created resource to its parents' children. */
    public abstract void register(VerbsResource resource);

    /** The resource's open children, newest first. */
    public abstract List<VerbsResource> liveDependents(VerbsResource resource);

    /** {@return the record of {@code context}'s device ({@code ibv_context.device}), read without wrapping the context} */
    public abstract Device describeDevice(MemorySegment context);

    /**
     * Wraps the device context librdmacm opened for an identifier ({@code rdma_cm_id.verbs}) as a
     * child of {@code owner}, registered; closing it never closes the device.
     */
    public abstract Context adoptContext(MemorySegment context, VerbsResource owner);

    /**
     * {@code rdma_create_qp} on an identifier: the queue pair librdmacm made, destroyed through
     * {@code destroy} ({@code rdma_destroy_qp}) instead of {@code ibv_destroy_qp}.
     */
    public abstract QueuePair createQueuePairOnIdentifier(MemorySegment idHandle, ProtectionDomain pd,
                                                          QueuePairOptions options, Runnable destroy);

    /** Records a state librdmacm moved a queue pair to. */
    public abstract void assumeState(QueuePair queuePair, QueuePairState state);
}
