package dev.panamaverbs.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Close from any thread for an object that is not a {@code VerbsResource} but whose uses touch
 * memory or native objects its close frees (the one-sided channel): the same rules as
 * {@code VerbsResource}'s acquire, release and close.
 * <ul>
 *   <li>Every use runs between {@link #enter} and {@link #exit()} (in a finally block). After
 *       close has begun, {@code enter} throws {@link IllegalStateException}: a use after close is
 *       misuse.</li>
 *   <li>{@link #beginClose()} marks the gate closed at once; a use under way sees
 *       {@link #isClosed()} at its next check and leaves. {@link #awaitUsesDone()} then waits
 *       until every use under way has left, and only then may the owner free what they touch,
 *       so no memory is freed under a thread inside a native call. Uses must check
 *       {@link #isClosed()} in every round of a wait: that is what keeps this wait short.</li>
 *   <li>A close that finds another thread closing waits until that close has finished
 *       ({@link #endClose()}), so close returns only once everything is freed.</li>
 * </ul>
 * {@code enter} and {@code exit} are one atomic add each and allocate nothing (data path).
 * A thread must not close the gate from inside its own use: the close would wait for itself.
 */
public final class CloseGate {
    private static final int CLOSED = 1 << 30;
    private static final VarHandle STATE = Handles.field(MethodHandles.lookup(), "state", int.class);

    /** The closed bit and the number of uses under way. */
    private volatile int state;
    /** Opened once the close that set the closed bit has finished. */
    private final CountDownLatch closeFinished = new CountDownLatch(1);
    /** Named in the exception of a use after close. */
    private final Object owner;

    /**
     * A gate for {@code owner}.
     *
     * @param owner the object the gate guards, named (its {@code toString}) when a use is refused
     */
    public CloseGate(Object owner) {
        this.owner = owner;
    }

    /**
     * Starts a use; pair with {@link #exit()} in a finally block.
     *
     * @param what the use, for the message (e.g. {@code "put"})
     * @throws IllegalStateException once close has begun
     */
    public void enter(String what) {
        int previous = (int) STATE.getAndAdd(this, 1);
        if ((previous & CLOSED) != 0) {
            exit();
            throw new IllegalStateException(what + ": " + owner + " is closed");
        }
    }

    /**
     * The object the gate guards.
     *
     * @return the owner given to the constructor
     */
    public Object owner() {
        return owner;
    }

    /** Ends a use started by {@link #enter}. */
    public void exit() {
        int unused = (int) STATE.getAndAdd(this, -1); // typed as declared: the VarHandle call needs no adaptation
    }

    /**
     * Whether close has begun: uses under way check it in every round of a wait.
     *
     * @return true once {@link #beginClose()} has run
     */
    public boolean isClosed() {
        return (state & CLOSED) != 0;
    }

    /**
     * Marks the gate closed. Only the caller that gets true frees, after {@link #awaitUsesDone()},
     * and then calls {@link #endClose()}; a caller that finds the gate already closed waits here
     * until that close has finished and gets false.
     *
     * @return true for the one call that closed the gate
     */
    public boolean beginClose() {
        int previous;
        do {
            previous = state;
            if ((previous & CLOSED) != 0) {
                awaitCloseFinished();
                return false;
            }
        } while (!STATE.compareAndSet(this, previous, previous | CLOSED));
        return true;
    }

    /** Waits until every use under way has left; not interruptible (what follows frees their memory). */
    public void awaitUsesDone() {
        int spins = 0;
        while ((state & ~CLOSED) != 0) {
            if (++spins < 1_000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    /** Ends the close begun by the {@link #beginClose()} that returned true: other closes return. */
    public void endClose() {
        closeFinished.countDown();
    }

    private void awaitCloseFinished() {
        Handles.awaitUninterruptibly(closeFinished); // everything is freed on return
    }
}
