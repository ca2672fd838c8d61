package dev.panamaverbs.messaging;

import dev.panamaverbs.cm.ConnectionEvent;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.values.DeviceAttributes;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * How a {@link MessageChannel} is connected with rdma_cm: the client's resolve and
 * {@code rdma_connect}, the server's handshake check and {@code rdma_accept}, each with the
 * channel's resources made and its receive buffers posted first, the handshake in the private
 * data, RNR retry 0, and the RDMA READ depth of rendezvous negotiated in the connection
 * parameters.
 */
final class ChannelSetup {
    private ChannelSetup() {}

    /** {@link MessageChannel#connect}; {@code pool} may be null (the channel's own receive buffers). */
    static MessageChannel connect(InetSocketAddress remote, ChannelOptions options, SharedReceivePool pool) {
        Objects.requireNonNull(remote, "message channel: remote is null");
        Objects.requireNonNull(options, "message channel: options is null");
        ConnectionEventChannel cmChannel = ConnectionEventChannel.create();
        try {
            ConnectionId id = cmChannel.createIdentifier(PortSpace.TCP);
            id.resolveAddress(remote, options.connectTimeout());
            id.resolveRoute(options.connectTimeout());
            int depth = requestedDepth(id, options);
            ChannelResources resources = ChannelResources.create(cmChannel, id, options, depth, pool,
                    pool == null ? null : pool.reserve(id.context(), options));
            ConnectionEvent established = id.connect(connectionOptions(options, depth, depth), options.connectTimeout());
            String peer = remote.getAddress().getHostAddress() + ":" + remote.getPort();
            Handshake theirs = Handshake.decode(established.privateData(), peer);
            return start(resources, options, theirs, peer,
                    RendezvousLimits.negotiatedDepth(depth, established.initiatorDepth()));
        } catch (RuntimeException | Error e) {
            cmChannel.close();
            throw e;
        }
    }

    /**
     * The server side: checks the request's handshake (rejecting a stranger), makes the resources
     * (on {@code pool}'s SRQ unless null), accepts.
     */
    static MessageChannel accept(ConnectionRequest request, ChannelOptions options, SharedReceivePool pool) {
        String peer = request.remoteAddress().getAddress().getHostAddress() + ":" + request.remoteAddress().getPort();
        Handshake theirs;
        try {
            theirs = Handshake.decode(request.privateData(), peer);
        } catch (MessagingException e) {
            reject(request, e);
            throw e;
        }
        ConnectionId id = request.identifier();
        ConnectionEventChannel cmChannel = id.channel();
        try {
            int depth = requestedDepth(id, options);
            // The CM reports the client's values from this side's view: the event's initiator_depth
            // is the client's responder_resources (our READs' bound), its responder_resources the
            // client's initiator_depth (what we must answer).
            int initiator = RendezvousLimits.negotiatedDepth(depth, request.event().initiatorDepth());
            int responder = RendezvousLimits.negotiatedDepth(depth, request.event().responderResources());
            PoolLedger.Reservation reservation;
            try {
                reservation = pool == null ? null : pool.reserve(id.context(), options);
            } catch (MessagingException full) {
                reject(request, full); // the pool has no room: the client hears why
                throw full;
            }
            ChannelResources resources = ChannelResources.create(cmChannel, id, options, depth, pool, reservation);
            id.accept(connectionOptions(options, initiator, responder), options.connectTimeout());
            return start(resources, options, theirs, peer, initiator);
        } catch (RuntimeException | Error e) {
            cmChannel.close();
            throw e;
        }
    }

    /** {@code rdma_reject} with {@code why}'s message (cut to the CM's limit) as the private data. */
    private static void reject(ConnectionRequest request, MessagingException why) {
        byte[] reason = why.getMessage().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        request.reject(java.util.Arrays.copyOf(reason, Math.min(reason.length, ConnectionOptions.MAX_REJECT_PRIVATE_DATA)));
    }

    /** The READ depth this side asks for: the option within the device's max_qp_init_rd_atom and max_qp_rd_atom. */
    private static int requestedDepth(ConnectionId id, ChannelOptions options) {
        DeviceAttributes device = id.context().queryDevice();
        return RendezvousLimits.requestedDepth(options.rendezvousReadDepth(), device.maxQpInitRdAtom(),
                device.maxQpRdAtom());
    }

    /**
     * The rdma_cm parameters: our handshake, RNR retry 0 (an RNR is an error, never a silent
     * retry), and the RDMA READ depth of rendezvous ({@code initiator_depth},
     * {@code responder_resources}; a responder resource also gives the queue pair REMOTE_READ).
     */
    private static ConnectionOptions connectionOptions(ChannelOptions options, int initiatorDepth, int responderResources) {
        return ConnectionOptions.builder()
                .privateData(new Handshake(options.receiveCredits(), options.maxMessageSize()).encode())
                .initiatorDepth(initiatorDepth).responderResources(responderResources)
                .rnrRetryCount(0).retryCount(options.retryCount())
                .connectTimeout(options.connectTimeout()).resolveTimeout(options.connectTimeout()).build();
    }

    private static MessageChannel start(ChannelResources resources, ChannelOptions options, Handshake theirs, String peer,
            int readDepth) {
        MessageChannel channel = new MessageChannel(resources, options, theirs, peer, readDepth);
        channel.start();
        if (resources.sharedPool != null) {
            resources.sharedPool.attach(channel);
        }
        return channel;
    }

}
