package dev.panamaverbs.messaging;

/**
 * A snapshot of a {@link SharedReceivePool} ({@link SharedReceivePool#statistics()}).
 *
 * @param buffers the buffers of the pool, all posted to its SRQ but those taken
 * @param bufferSize the size of each, header included: the {@link ChannelOptions#bufferSize()} of its channels
 * @param reservedBuffers the buffers no new channel can have: the windows (plus credit-message
 *                        reserves) of the open channels, and the buffers that messages of closed
 *                        channels still hold until released
 * @param channels the open channels receiving from it, counted from their reservation (before
 *                 their connect or accept) to their close
 */
public record PoolStatistics(int buffers, int bufferSize, int reservedBuffers, int channels) {
}
