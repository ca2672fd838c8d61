package dev.panamaverbs.onesided;

/** The range and alignment checks of windows and their 8-byte slots. */
final class Slots {
    /** A signal or counter word: 64 bits, as RDMA atomics operate on. */
    static final int SLOT_BYTES = 8;

    private Slots() {}

    /**
     * Checks that an 8-byte slot at {@code offset} of a window at device address {@code base} is
     * 8-byte aligned (offset and address) and inside {@code windowLength} bytes.
     */
    static void checkSlot(Object window, long base, long offset, long windowLength) {
        if ((offset & (SLOT_BYTES - 1)) != 0) {
            throw new IllegalArgumentException("a slot must be 8-byte aligned: offset " + offset + " in " + window);
        }
        if (((base + offset) & (SLOT_BYTES - 1)) != 0) {
            throw new IllegalArgumentException("a slot must be 8-byte aligned: offset " + offset + " of " + window
                    + " is at device address 0x" + Long.toHexString(base + offset));
        }
        checkRange(window, offset, SLOT_BYTES, windowLength);
    }

    /** Checks that {@code [offset, offset + length)} lies inside {@code windowLength} bytes. */
    static void checkRange(Object window, long offset, long length, long windowLength) {
        if (offset < 0 || length < 0 || offset > windowLength - length) {
            throw new IndexOutOfBoundsException("bytes [" + offset + ", " + offset + " + " + length + ") are outside "
                    + window + " of " + windowLength + " bytes");
        }
    }
}
