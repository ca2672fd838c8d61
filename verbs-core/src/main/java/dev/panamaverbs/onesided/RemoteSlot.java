package dev.panamaverbs.onesided;

import java.util.Objects;

/**
 * An 8-byte signal word in a peer's window: the target of {@link OneSidedChannel#signal signals}
 * and {@link OneSidedChannel#resetSignal resets}. 8-byte aligned and inside the window, checked
 * on creation, as RDMA atomics require. Make it once and keep it.
 *
 * @param window the peer's window
 * @param offset the word's byte offset in the window, a multiple of 8
 */
public record RemoteSlot(RemoteWindow window, long offset) {
    /** Checks alignment and bounds. */
    public RemoteSlot {
        Objects.requireNonNull(window, "window");
        Slots.checkSlot(window, window.descriptor().address(), offset, window.descriptor().length());
    }

    /**
     * The word's device address on the peer.
     *
     * @return the window's address plus the offset
     */
    public long address() {
        return window.descriptor().address() + offset;
    }

    /**
     * The peer window's rkey.
     *
     * @return the rkey
     */
    public int rkey() {
        return window.descriptor().rkey();
    }

    @Override
    public String toString() {
        return "slot " + offset + " of " + window;
    }
}
