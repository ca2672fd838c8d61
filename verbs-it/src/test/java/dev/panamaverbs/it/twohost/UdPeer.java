package dev.panamaverbs.it.twohost;

import dev.panamaverbs.cm.EndpointExchange;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.it.support.PeerSide;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * Host B's side of {@link UdTwoHostTest}: listens for the endpoint exchange
 * ({@link EndpointExchange#listen}, port published as "port"), receives the test's datagrams,
 * checks them, and sends its own back. Exits 0 when all of that worked.
 */
public final class UdPeer {
    private UdPeer() {}

    public static void main(String[] args) throws Exception {
        try (UdDatagrams side = new UdDatagrams(PeerSide.device());
             EndpointExchange.Listener listener = EndpointExchange.listen(new InetSocketAddress(PeerSide.localAddress(), 0))) {
            PeerSide.publish("port", listener.localAddress().getPort());
            EndpointInfo theirs = listener.accept(side.endpoint(), Duration.ofSeconds(120));
            System.out.println("UdPeer: mine " + side.endpoint() + ", theirs " + theirs);
            side.receiveFrom(theirs, UdTwoHostTest.FROM_A);
            System.out.println("UdPeer: " + UdDatagrams.COUNT + " datagrams from host A verified");
            side.sendTo(theirs, UdTwoHostTest.FROM_B);
            System.out.println("UdPeer: " + UdDatagrams.COUNT + " datagrams sent to host A");
        }
    }
}
