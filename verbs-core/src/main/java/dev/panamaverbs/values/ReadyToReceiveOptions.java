package dev.panamaverbs.values;

import dev.panamaverbs.internal.Ranges;

/**
 * The receive-side attributes of an RC queue pair's RTR transition that are not about the remote
 * endpoint ({@link dev.panamaverbs.QueuePair#toRtr(RemoteEndpoint, ReadyToReceiveOptions)}). UC ignores them.
 *
 * @param maxDestReadAtomic {@code max_dest_rd_atomic}: RDMA READ/atomic operations the peer may
 *                          have in flight against this side, or {@link #FROM_DEVICE} for the
 *                          device's {@code max_qp_rd_atom} (at least 1)
 * @param minRnrTimer       {@code min_rnr_timer}: the RNR NAK delay code (0..31; 12 = 0.64 ms)
 */
public record ReadyToReceiveOptions(int maxDestReadAtomic, int minRnrTimer) {
    /** {@code maxDestReadAtomic} value meaning "the device's maximum". */
    public static final int FROM_DEVICE = -1;

    /** Checks each field against its width in the verbs. */
    public ReadyToReceiveOptions {
        Ranges.require("ibv_modify_qp", "max_dest_rd_atomic", maxDestReadAtomic, FROM_DEVICE, 255);
        Ranges.require("ibv_modify_qp", "min_rnr_timer", minRnrTimer, 0, 31);
    }

    /**
     * The device's responder depth and an RNR timer of 12 (0.64 ms).
     *
     * @return the device's responder depth and an RNR timer of 12 (0.64 ms)
     */
    public static ReadyToReceiveOptions defaults() {
        return new ReadyToReceiveOptions(FROM_DEVICE, 12);
    }
}
