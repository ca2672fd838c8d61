package dev.panamaverbs.values;


/**
 * A send rate limit for {@link dev.panamaverbs.QueuePair#limitRate(RateLimit)} ({@code struct
 * ibv_qp_rate_limit_attr}, packet pacing). The device's range and the queue pair types it paces
 * are {@link ExtendedDeviceAttributes#packetPacing()}.
 *
 * @param kbps               {@code rate_limit}: kbit/s, 0 removes the limit (a uint32_t)
 * @param maxBurstBytes      {@code max_burst_sz}: bytes sent at full speed before pacing, 0 for the device's default (a uint32_t)
 * @param typicalPacketBytes {@code typical_pkt_sz}: the expected packet size, 0 for the port's MTU (a uint16_t)
 */
public record RateLimit(long kbps, long maxBurstBytes, int typicalPacketBytes) {
    private static final long UINT32_MAX = 0xFFFF_FFFFL;

    /**
     * Checks the ranges.
     *
     * @throws IllegalArgumentException if a value does not fit its C field
     */
    public RateLimit {
        if (kbps < 0 || kbps > UINT32_MAX || maxBurstBytes < 0 || maxBurstBytes > UINT32_MAX) {
            throw new IllegalArgumentException("ibv_modify_qp_rate_limit: rate_limit and max_burst_sz are uint32_t, got "
                    + kbps + " and " + maxBurstBytes);
        }
        if (typicalPacketBytes < 0 || typicalPacketBytes > 0xFFFF) {
            throw new IllegalArgumentException("ibv_modify_qp_rate_limit: typical_pkt_sz is a uint16_t, got "
                    + typicalPacketBytes);
        }
    }

    /**
     * A limit of {@code kbps} with the device's default burst and packet size.
     *
     * @param kbps kbit/s, 0 removes the limit
     * @return the limit
     */
    public static RateLimit ofKbps(long kbps) {
        return new RateLimit(kbps, 0, 0);
    }
}
