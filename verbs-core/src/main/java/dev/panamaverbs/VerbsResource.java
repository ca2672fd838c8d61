package dev.panamaverbs;

import dev.panamaverbs.internal.Handles;
import dev.panamaverbs.gateway.Pointers;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.function.Supplier;

/**
 * A verbs object owned by the JVM: a node of the resource tree (Context -> PD/CQ/channel ->
 * MR/QP/SRQ/AH/MW).
 *
 * <h2>The rules</h2>
 * <ul>
 *   <li>Each resource holds its parent (and whatever else it depends on, such as a QP's CQs) and
 *       registers with it as a dependent. {@link #close()} closes live dependents first, newest
 *       first, then frees the native object. A second {@code close()} does nothing.</li>
 *   <li>Every use of the native object runs between {@link #acquire()} and {@link #release()}.
 *       After close has begun, {@code acquire()} throws {@link IllegalStateException} naming the
 *       resource: the native pointer is never touched again, so misuse cannot crash the JVM.</li>
 *   <li>Concurrent close during use: {@code close()} marks the resource closed at once (new uses
 *       fail), then waits until the uses already running have returned, and only then frees the
 *       native object. Uses are short (blocking waits, such as a completion channel's, park in
 *       Java between short native calls), so the wait is bounded.</li>
 *   <li>Close racing close: a {@code close()} that finds another thread closing the resource
 *       waits until that close has finished (dependents closed, native object freed) before it
 *       returns. So a parent whose close reaches a child another thread is closing frees itself
 *       only after the child's destroy verb returned: the kernel never sees a parent destroyed
 *       under a child.</li>
 * </ul>
 */
public abstract class VerbsResource implements AutoCloseable {
    /** DEBUG: one line per resource created and closed, for users chasing a leak. */
    private static final Logger LOG = LoggerFactory.getLogger(VerbsResource.class);
    private static final long CLOSED = 1L << 62;
    /** Set while one caller changes the native object in place ({@link #tryBeginExclusive}): uses are refused. */
    private static final long EXCLUSIVE = 1L << 61;
    private static final AtomicLongFieldUpdater<VerbsResource> STATE =
            AtomicLongFieldUpdater.newUpdater(VerbsResource.class, "state");

    /** Closed bit and the number of uses under way. */
    private volatile long state;
    /** Opened once the close that set the closed bit has finished (freed or failed to free). */
    private final CountDownLatch closeFinished = new CountDownLatch(1);
    /** The thread running that close: its own nested {@code close()} of this resource returns at once. */
    private volatile Thread closingThread;

    private final String kind;
    private final MemorySegment handle;
    /** The scope of the segment {@link #handle()} hands out; created on first use, closed on close. */
    private Arena handleArena;
    private MemorySegment scopedHandle;
    private final List<VerbsResource> dependencies;
    private final Set<VerbsResource> dependents = new LinkedHashSet<>();

    /**
     * A resource of the given kind (e.g. "QueuePair") over the native object at {@code handle}
     * (sized to its C struct), depending on {@code dependencies}, its parent first. Nothing is
     * registered until {@link #register()}.
     *
     * @param kind         the resource's kind, as {@link #toString()} shows it
     * @param handle       the native object
     * @param dependencies the resources this one depends on, its parent first; each stays open until this closes
     */
    protected VerbsResource(String kind, MemorySegment handle, VerbsResource... dependencies) {
        this.kind = kind;
        this.handle = handle;
        this.dependencies = List.of(dependencies);
    }

    /**
     * The native object (e.g. the {@code struct ibv_qp}) for callers of the generated layer, as a
     * <b>read-only</b> segment: the provider and the kernel own that memory, and a write through
     * it (zeroing a {@code struct ibv_cq}, say) would crash the process at the next verb, so
     * a {@code set} or {@code fill} throws {@link IllegalArgumentException}, as on every
     * read-only segment. It may still
     * be passed to the generated invokers, which hand its address to C. The segment's scope ends
     * when this resource closes: a handle kept past {@link #close()} throws
     * {@link IllegalStateException} on access instead of reading freed memory.
     *
     * @throws IllegalStateException if closed
     * @return the native object, read-only
     */
    public final MemorySegment handle() {
        acquire();
        try {
            synchronized (this) {
                if (scopedHandle == null) {
                    // Made on first request only: most resources never hand out their handle.
                    handleArena = Arena.ofShared();
                    scopedHandle = Pointers.scoped(handle, handleArena).asReadOnly();
                }
                return scopedHandle;
            }
        } finally {
            release();
        }
    }

    /**
     * Ends the scope of segments {@link #handle()} gave out, before the native object is freed:
     * a kept handle then fails with {@link IllegalStateException} instead of reading freed memory.
     * If a caller's own downcall holds the segment at this very moment, the scope cannot close;
     * the native object is freed all the same (the caller raced its own close).
     */
    private synchronized void closeHandedOutScope() {
        if (handleArena != null) {
            try {
                handleArena.close();
            } catch (IllegalStateException inUse) {
                // see above: nothing else to do
            }
        }
    }

    /**
     * The native object without the closed check, for code already inside acquire/release.
     *
     * @return the native object, sized to its C struct, valid until the resource is destroyed
     */
    protected final MemorySegment handleSegment() {
        return handle;
    }

    /**
     * The native object's address, for the data path inside acquire/release.
     *
     * @return the native object's address
     */
    protected final long handleAddress() {
        return handle.address();
    }

    /**
     * Registers this resource with its dependencies. Called by subclasses once the native object
     * exists, inside the parent's acquire/release. If a dependency closed meanwhile, the native
     * object is destroyed again and the dependency's closed exception is thrown, so nothing leaks.
     */
    protected final void register() {
        List<VerbsResource> done = new ArrayList<>();
        try {
            for (VerbsResource dependency : dependencies) {
                dependency.addDependent(this);
                done.add(dependency);
            }
        } catch (IllegalStateException closed) {
            for (VerbsResource dependency : done) {
                dependency.removeDependent(this);
            }
            STATE.getAndAdd(this, CLOSED);
            try {
                destroy();
            } catch (RuntimeException e) {
                closed.addSuppressed(e);
            } finally {
                closeFinished.countDown();
            }
            throw closed;
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("created {}", this);
        }
    }

    /** The resources this one depends on, its parent first. */
    final List<VerbsResource> dependencies() {
        return dependencies;
    }

    /**
     * The parent: the first of the dependencies this resource was made with.
     *
     * @param <P> the parent's type, as the subclass knows it
     * @return the parent
     */
    @SuppressWarnings("unchecked")
    final <P extends VerbsResource> P parent() {
        return (P) dependencies.get(0);
    }

    /**
     * {@code value}, once this resource is checked open: the whole of a getter that refuses use
     * after close ({@link IllegalStateException} naming this resource).
     *
     * @param <T>   the value's type
     * @param value what the getter answers
     * @return {@code value}
     */
    final <T> T whileOpen(T value) {
        requireOpen(this);
        return value;
    }

    /** {@link #whileOpen(Object)} for an {@code int}, unboxed. */
    final int whileOpen(int value) {
        return (int) whileOpen((long) value);
    }

    /** {@link #whileOpen(Object)} for a {@code boolean}, unboxed. */
    final boolean whileOpen(boolean value) {
        return whileOpen(value ? 1L : 0L) != 0L;
    }

    /** {@link #whileOpen(Object)} for a {@code long}, unboxed. */
    final long whileOpen(long value) {
        if (isClosed()) {
            throw closedException();
        }
        return value;
    }

    /**
     * Checks that every dependency is open, before a create verb runs: creating a child of a
     * closed parent is an {@link IllegalStateException}, not a native call.
     */
    static void requireOpen(VerbsResource... resources) {
        for (VerbsResource resource : resources) {
            if (resource.isClosed()) {
                throw resource.closedException();
            }
        }
    }

    /**
     * Makes {@code user} a dependent of this resource after creation, for relations that come and
     * go (a memory window while bound to a region): from now on {@link #close()} closes
     * {@code user} before freeing this resource, newest first with the other dependents. Same
     * atomicity as creation-time registration: either this resource is still open and
     * {@code user} will be closed by its close, or {@link IllegalStateException} is thrown and
     * nothing changed. Adding an already registered dependent does nothing. The caller must
     * {@link #removeUser} it when the relation ends, at the latest when {@code user} is destroyed
     * (its close only unregisters it from its fixed {@link #dependencies()}).
     */
    final void addUser(VerbsResource user) {
        addDependent(user);
    }

    /** Ends a relation made by {@link #addUser}; does nothing if {@code user} is not registered. */
    final void removeUser(VerbsResource user) {
        removeDependent(user);
    }

    private synchronized void addDependent(VerbsResource dependent) {
        if (isClosed()) {
            throw closedException();
        }
        dependents.add(dependent);
    }

    private synchronized void removeDependent(VerbsResource dependent) {
        dependents.remove(dependent);
    }

    /** Starts a use of the native object; pair with {@link #release()} in a finally block. */
    protected final void acquire() {
        long previous = STATE.getAndAdd(this, 1L);
        if ((previous & (CLOSED | EXCLUSIVE)) != 0) {
            STATE.getAndAdd(this, -1L);
            if ((previous & CLOSED) != 0) {
                throw closedException();
            }
            throw new IllegalStateException(this + " is being changed (ibv_rereg_mr) by another thread");
        }
    }

    /**
     * Starts an exclusive use, for a verb that changes the native object in place
     * ({@code ibv_rereg_mr}): succeeds only when the resource is open and no use is under way (no
     * post holds it); until {@link #endExclusive()} every {@link #acquire()} is refused and a
     * {@link #close()} waits.
     *
     * @return false when the resource is closed, or in use (the caller refuses)
     */
    final boolean tryBeginExclusive() {
        return STATE.compareAndSet(this, 0L, EXCLUSIVE);
    }

    /** Ends the use started by {@link #tryBeginExclusive()}. */
    final void endExclusive() {
        STATE.getAndAdd(this, -EXCLUSIVE);
    }

    /** Ends a use started by {@link #acquire()}. */
    protected final void release() {
        STATE.getAndAdd(this, -1L);
    }

    /**
     * True once {@link #close()} has begun.
     *
     * @return true once {@link #close()} has begun
     */
    public final boolean isClosed() {
        return (STATE.get(this) & CLOSED) != 0;
    }

    /**
     * The exception every use after close throws.
     *
     * @return an exception naming this resource as closed
     */
    protected final IllegalStateException closedException() {
        return new IllegalStateException(this + " is closed");
    }

    /**
     * Closes live dependents (newest first), waits for uses under way to return, then frees the
     * native object. Idempotent: a later {@code close()} returns at once, and one that finds
     * another thread closing this resource waits until that close has finished. If freeing
     * fails, the resource stays closed (its handle is never used again) and the failure is
     * thrown by the close that freed it.
     */
    @Override
    public final void close() {
        long previous;
        do {
            previous = STATE.get(this);
            if ((previous & CLOSED) != 0) {
                awaitCloseFinished();
                return;
            }
        } while (!STATE.compareAndSet(this, previous, previous | CLOSED));
        closingThread = Thread.currentThread();
        try {
            closeNow();
        } finally {
            closeFinished.countDown();
        }
    }

    /** Waits for the close under way in another thread (none in this one: a nested close returns). */
    private void awaitCloseFinished() {
        if (closingThread == Thread.currentThread()) {
            return;
        }
        Handles.awaitUninterruptibly(closeFinished); // the native object must be gone on return
    }

    /** The close proper, run once by the thread that set the closed bit. */
    private void closeNow() {
        RuntimeException failure = null;
        for (VerbsResource dependent : snapshotDependentsNewestFirst()) {
            try {
                dependent.close();
            } catch (RuntimeException e) {
                failure = addFailure(failure, e);
            }
        }
        awaitUsesDone();
        closeHandedOutScope();
        try {
            destroy();
        } catch (RuntimeException e) {
            failure = addFailure(failure, e);
        }
        for (VerbsResource dependency : dependencies) {
            dependency.removeDependent(this);
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug(failure == null ? "closed {}" : "closed {} (freeing it failed)", this);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private synchronized List<VerbsResource> snapshotDependentsNewestFirst() {
        List<VerbsResource> snapshot = new ArrayList<>(dependents);
        java.util.Collections.reverse(snapshot);
        return snapshot;
    }

    private static RuntimeException addFailure(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    private void awaitUsesDone() {
        int spins = 0;
        while ((STATE.get(this) & ~CLOSED) != 0) {
            if (++spins < 1_000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    /** The live dependents (children and users), for tests and diagnostics. */
    final synchronized List<VerbsResource> liveDependents() {
        return List.copyOf(dependents);
    }

    /** Frees the native object; runs once, after every dependent is closed and no use is under way. */
    protected abstract void destroy();

    /** A short description naming the kind and the native identity, e.g. {@code QueuePair[qpn=17]}. */
    @Override
    public String toString() {
        return kind + "[" + describe() + "]";
    }

    /**
     * The identifying part of {@link #toString()}.
     *
     * @return what tells this resource from others of its kind (a number, a name)
     */
    protected abstract String describe();
}
