package dev.panamaverbs.cm;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.SendWorkRequest;

/**
 * Where a UD datagram goes, as rdma_cm resolved it ({@code RDMA_PS_UDP}): the peer's queue pair
 * number and Q_Key and an address handle to it. Pass them to
 * {@link SendWorkRequest#ud(AddressHandle, int, int)}.
 *
 * @param queuePairNumber the peer's QPN
 * @param qkey            the peer's Q_Key
 * @param addressHandle   the route to the peer (a child of the endpoint's protection domain)
 */
public record DatagramPeer(int queuePairNumber, int qkey, AddressHandle addressHandle) {
}
