package dev.panamaverbs.onesided;

import java.util.Objects;

/**
 * A peer's {@link Window}, opened from the {@link WindowDescriptor} the peer sent: the target of
 * {@link OneSidedChannel#put puts} and, through its {@link RemoteSlot}s, of signals. Holds no
 * native resource; whether the peer's rkey is still valid shows on the first operation.
 *
 * @param descriptor what the peer sent: the window's address, length and rkey
 */
public record RemoteWindow(WindowDescriptor descriptor) {
    /** Checks for null. */
    public RemoteWindow {
        Objects.requireNonNull(descriptor, "descriptor");
    }

    /**
     * The remote window {@code descriptor} describes.
     *
     * @param descriptor what the peer sent
     * @return the remote window
     */
    public static RemoteWindow open(WindowDescriptor descriptor) {
        return new RemoteWindow(descriptor);
    }

    /**
     * The device address of byte {@code offset}, checked to leave room for {@code length} bytes.
     *
     * @param offset the byte offset in the window
     * @param length how many bytes must follow
     * @return the device address
     * @throws IndexOutOfBoundsException if {@code [offset, offset + length)} is not inside the window
     */
    public long addressAt(long offset, long length) {
        Slots.checkRange(this, offset, length, descriptor.length());
        return descriptor.address() + offset;
    }

    /**
     * The peer's 8-byte slot at {@code offset}.
     *
     * @param offset the slot's byte offset, a multiple of 8
     * @return the slot
     * @throws IllegalArgumentException if {@code offset} is not 8-byte aligned
     * @throws IndexOutOfBoundsException if the slot is not inside the window
     */
    public RemoteSlot slot(long offset) {
        return new RemoteSlot(this, offset);
    }

    @Override
    public String toString() {
        return "RemoteWindow[0x" + Long.toHexString(descriptor.address()) + ", " + descriptor.length()
                + " bytes, rkey=0x" + Integer.toHexString(descriptor.rkey()) + "]";
    }
}
