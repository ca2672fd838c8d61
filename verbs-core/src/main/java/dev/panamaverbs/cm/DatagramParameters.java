package dev.panamaverbs.cm;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.ProtectionDomain;

/**
 * What a datagram (UD) rdma_cm event tells about the peer, from C {@code struct rdma_ud_param}:
 * its queue pair number and Q_Key, and the address to send to (create an {@link AddressHandle}
 * from it with {@link ProtectionDomain#createAddressHandle}).
 *
 * @param queuePairNumber {@code qp_num}: the remote QPN a UD send names
 * @param qkey            {@code qkey}: the Q_Key a UD send carries
 * @param address         {@code ah_attr}: the route to the peer
 */
public record DatagramParameters(int queuePairNumber, int qkey, AddressHandleAttributes address) {
    @Override
    public String toString() {
        return "DatagramParameters[qpn=" + queuePairNumber + ", qkey=0x" + Integer.toHexString(qkey) + "]";
    }
}
