package dev.panamaverbs.values;

/**
 * A shared receive queue's current attributes ({@code struct ibv_srq_attr} from
 * {@code ibv_query_srq}).
 *
 * @param maxWorkRequests {@code max_wr}: the queue's capacity in receive requests
 * @param maxSge          {@code max_sge}: scatter/gather entries per request
 * @param limit           {@code srq_limit}: the armed limit, 0 when not armed (an event fired disarms it)
 */
public record SharedReceiveQueueAttributes(int maxWorkRequests, int maxSge, int limit) {
}
