package dev.panamaverbs.values;


/**
 * Enhanced connection establishment options (C {@code struct ibv_ece}): vendor-specific features
 * two queue pairs negotiate while connecting. Read with {@link dev.panamaverbs.QueuePair#queryEce()} and offered
 * with {@link dev.panamaverbs.QueuePair#setEce(EceOptions)} ({@code ibv_query_ece}, {@code ibv_set_ece});
 * the connection manager carries them between the two sides. {@code comp_mask} is always 0: no
 * extension of the struct is defined.
 *
 * @param vendorId {@code vendor_id}: the IEEE OUI of the vendor the options belong to
 * @param options  {@code options}: vendor-specific option bits (an unsigned 32-bit value)
 */
public record EceOptions(int vendorId, int options) {}
