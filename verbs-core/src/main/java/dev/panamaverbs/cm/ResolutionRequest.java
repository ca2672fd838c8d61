package dev.panamaverbs.cm;

import java.net.InetSocketAddress;

/**
 * Who asked a datagram server to resolve it ({@link RdmaDatagramSocket#answerResolution}): the
 * requester's address and the private data of its resolution request (C {@code struct
 * rdma_cm_event} of type CONNECT_REQUEST on the UDP port space). The requester's QPN comes with
 * its first datagram (the completion's source QPN), not with the request.
 *
 * @param requester   the requesting peer's address ({@code route.addr.dst_addr})
 * @param privateData its private data (padded by the CM)
 */
public record ResolutionRequest(InetSocketAddress requester, byte[] privateData) {
    /** Copies the private data. */
    public ResolutionRequest {
        privateData = privateData.clone();
    }

    /**
     * A copy of the private data.
     *
     * @return a copy of the private data
     */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    @Override
    public String toString() {
        return "ResolutionRequest[" + SocketAddresses.format(requester) + ", " + privateData.length + " bytes]";
    }
}
