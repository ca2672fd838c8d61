package dev.panamaverbs.cm;

import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The state of one high-level rdma_cm object ({@link RdmaListener}, {@link RdmaConnection},
 * {@link ConnectionRequest}, {@link RdmaDatagramSocket}): one atomic value of that class's state
 * enum. Each class lists, per operation, the states that allow it; a refused operation throws
 * {@link IllegalStateException} naming the operation, the object and its state, before anything
 * native is touched. Transitions are compare-and-set, so two threads racing for the same step
 * (two accepts of one request, an accept and a reject) see exactly one win.
 *
 * @param <S> the class's state enum
 */
final class CmStateMachine<S extends Enum<S>> {
    private final AtomicReference<S> state;
    private final Supplier<String> owner;

    CmStateMachine(S initial, Supplier<String> owner) {
        this.state = new AtomicReference<>(initial);
        this.owner = owner;
    }

    /**
     * The current state.
     *
     * @return the current state
     */
    S current() {
        return state.get();
    }

    /** Throws unless the current state is one of {@code allowed}. */
    S require(String operation, Set<S> allowed) {
        S now = state.get();
        if (!allowed.contains(now)) {
            throw refused(operation, now, allowed);
        }
        return now;
    }

    /** Moves from one of {@code from} to {@code to} atomically; throws (changing nothing) from any other state. */
    S move(String operation, Set<S> from, S to) {
        while (true) {
            S now = state.get();
            if (!from.contains(now)) {
                throw refused(operation, now, from);
            }
            if (state.compareAndSet(now, to)) {
                return now;
            }
        }
    }

    /** Moves to {@code to} whatever the state (close); returns the state left. */
    S force(S to) {
        return state.getAndSet(to);
    }

    /** Moves from {@code from} to {@code to} if the state is still {@code from}. */
    boolean moveIf(S from, S to) {
        return state.compareAndSet(from, to);
    }

    /** The exception of a refused operation. */
    IllegalStateException refused(String operation, S now, Set<S> allowed) {
        return new IllegalStateException(operation + ": " + owner.get() + " is " + now + " (allowed only when "
                + allowed + ")");
    }

    /**
     * The exception a waiter on another thread gets when the object is closed under it, with the
     * low-level failure (the closed channel or identifier) as its cause.
     */
    IllegalStateException closedWhileWaiting(String operation, RuntimeException cause) {
        return new IllegalStateException(operation + ": " + owner.get() + " was closed by another thread while"
                + " waiting", cause);
    }
}
