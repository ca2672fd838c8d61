package dev.panamaverbs;


/**
 * A memory region on the other side of a connection, as its owner advertised it (for example in
 * what the endpoint exchange sends): what RDMA READ, WRITE and atomic requests name with
 * {@link SendWorkRequest#rdma(long, int)} and friends.
 *
 * @param address the device address of the region's first byte (its {@link MemoryRegion#iova()})
 * @param rkey    the region's remote key
 * @param length  the region's length in bytes
 */
public record RemoteRegion(long address, int rkey, long length) {
    /** Checks the length; the address and key are the owner's to choose. */
    public RemoteRegion {
        if (length < 0) {
            throw new IllegalArgumentException("a remote region's length must be >= 0, got " + length);
        }
    }

    /**
     * What {@code region} tells a peer: its device address ({@code iova}), rkey and length.
     *
     * @param region the local registration to describe
     * @return what {@code region} tells a peer: its device address ({@code iova}), rkey and length.
     */
    public static RemoteRegion of(MemoryRegion region) {
        return new RemoteRegion(region.iova(), region.rkey(), region.length());
    }

    /**
     * The device address of byte {@code offset}, checked to leave room for {@code length} bytes.
     *
     * @throws IndexOutOfBoundsException if {@code [offset, offset + length)} is not inside the region
     * @param offset the byte's offset from the region's start
     * @param length the bytes that must fit from there
     * @return the device address of byte {@code offset}, checked to leave room for {@code length} bytes.
     */
    public long addressAt(long offset, long length) {
        if (offset < 0 || length < 0 || offset > this.length - length) {
            throw new IndexOutOfBoundsException("bytes [" + offset + ", " + offset + " + " + length
                    + ") are outside the remote region of " + this.length + " bytes");
        }
        return address + offset;
    }
}
