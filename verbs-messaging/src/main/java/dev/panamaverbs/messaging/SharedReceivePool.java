package dev.panamaverbs.messaging;

import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.PortSpace;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One pool of receive buffers for many {@link MessageChannel}s of this process on one device: a
 * shared receive queue ({@code ibv_create_srq}) with every buffer of one registered region posted
 * to it, which the queue pair of each channel made with the pool takes its receives from.
 *
 * <p>Flow control stays exact: a channel reserves its window plus the
 * {@value ChannelOptions#CONTROL_RESERVE} credit-message buffers
 * ({@link ChannelOptions#receiveBuffers()}) when it is made, and is refused when the pool has fewer
 * left. The sum of the windows the peers hold never exceeds the buffers posted, so no peer ever
 * meets an empty queue (no RNR). A buffer goes back to the queue when its message is released; a
 * channel's reservation when the channel closes, less the buffers its messages still hold, which
 * come back as they are released.
 *
 * <p>The pool is anchored on an rdma_cm identifier of its own, bound to the device's address
 * ({@code rdma_bind_addr}), because librdmacm gives every identifier on a device the same device
 * context: the protection domain and SRQ made on it serve the queue pairs of channels connected
 * or accepted through that device ({@link Context#sharesNativeContext}). A channel on another
 * device is refused.
 *
 * <p>Close the channels first. A {@link #close()} under live channels fails each of them first
 * ({@code rdma_disconnect}, so the peer learns at once; its waiters end with a
 * {@link MessagingException} naming the pool), then closes the queue pairs still using the SRQ,
 * the SRQ, region, protection domain and identifier. Thread-safe.
 */
public final class SharedReceivePool implements AutoCloseable {
    private final ConnectionEventChannel cmChannel;
    private final int bufferSize;
    private volatile boolean closed;
    private final Context context;
    /** The domain of the SRQ, hence of every queue pair, send buffer and READ destination of its channels. */
    final ProtectionDomain pd;
    final SharedReceiveQueue queue;
    /** The buffers; their messages belong to whichever channel each arrived on. */
    final ReceiveBuffers buffers;
    /** Which channel took each buffer, and the reservations. */
    private final PoolLedger ledger;
    /** The running channels on the pool, failed by its close before their queue pairs go. */
    private final Set<MessageChannel> attached = ConcurrentHashMap.newKeySet();

    private SharedReceivePool(ConnectionEventChannel cmChannel, Context context, int buffers, int bufferSize) {
        this.cmChannel = cmChannel;
        this.context = context;
        this.bufferSize = bufferSize;
        int maxWr = context.queryDevice().maxSrqWr();
        if (buffers > maxWr) {
            throw new IllegalArgumentException("shared receive pool: " + buffers + " buffers exceed the SRQ depth "
                    + context.device().name() + " allows (max_srq_wr " + maxWr + ")");
        }
        pd = context.allocateProtectionDomain();
        queue = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(buffers, 1));
        this.buffers = ReceiveBuffers.register(pd, buffers, bufferSize);
        ledger = new PoolLedger(buffers);
        for (ReceiveWorkRequest receive : this.buffers.receives) {
            queue.postReceive(receive);
        }
    }

    /**
     * A pool for up to {@code channels} channels made with {@code options} (or with smaller
     * windows) on the device of {@code deviceAddress}: {@code channels} x
     * {@link ChannelOptions#receiveBuffers()} buffers of {@link ChannelOptions#bufferSize()} bytes,
     * all posted to one SRQ.
     *
     * @param deviceAddress an address of the RDMA device (port ignored): the one the server listens
     *                      on, or the client's local address on the device it connects through
     * @param options the buffer size and window of the channels it serves
     * @param channels how many such channels it serves at once
     * @return the pool, every buffer posted
     * @throws IllegalArgumentException when {@code channels} is not positive or the buffers exceed
     *         the device's {@code max_srq_wr}
     * @throws dev.panamaverbs.VerbsException when binding, {@code ibv_create_srq} or
     *         {@code ibv_reg_mr} fails; {@link dev.panamaverbs.messaging.registration.RegistrationLimitException}
     *         when the memory lock limit refuses the region
     */
    public static SharedReceivePool create(InetSocketAddress deviceAddress, ChannelOptions options, int channels) {
        Objects.requireNonNull(deviceAddress, "shared receive pool: device address is null");
        Objects.requireNonNull(options, "shared receive pool: options is null");
        if (channels < 1) {
            throw new IllegalArgumentException("shared receive pool: channels must be at least 1, got " + channels);
        }
        long buffers = (long) channels * options.receiveBuffers();
        if (buffers > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("shared receive pool: " + buffers + " buffers is too many");
        }
        ConnectionEventChannel cmChannel = ConnectionEventChannel.create();
        try {
            ConnectionId anchor = cmChannel.createIdentifier(PortSpace.TCP);
            anchor.bind(new InetSocketAddress(deviceAddress.getAddress(), 0));
            return new SharedReceivePool(cmChannel, anchor.context(), (int) buffers, options.bufferSize());
        } catch (RuntimeException | Error e) {
            cmChannel.close();
            throw e;
        }
    }

    /** {@return its buffers, their size, those reserved or held, and its open channels} */
    public PoolStatistics statistics() {
        return new PoolStatistics(ledger.buffers(), bufferSize, ledger.reservedBuffers(), ledger.channels());
    }

    /** {@return the size of each buffer, header included: the {@link ChannelOptions#bufferSize()} of its channels} */
    public int bufferSize() {
        return bufferSize;
    }

    /** {@return the name of the device the pool is on} */
    public String deviceName() {
        return context.device().name();
    }

    /** {@return true once closed} */
    public boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- for the channels

    /**
     * Reserves a channel's buffers, checking that its identifier is on the pool's device and its
     * buffers are the pool's size.
     *
     * @throws MessagingException when the pool has too few buffers left, or is closed
     */
    PoolLedger.Reservation reserve(Context channelContext, ChannelOptions options) {
        if (closed) {
            throw new MessagingException("shared receive pool on " + deviceName() + " is closed", null);
        }
        if (!context.sharesNativeContext(channelContext)) {
            throw new IllegalArgumentException("shared receive pool: the pool is on " + deviceName()
                    + ", the connection on " + channelContext.device().name());
        }
        if (options.bufferSize() != bufferSize) {
            throw new IllegalArgumentException("shared receive pool: its buffers are " + bufferSize
                    + " bytes, the channel's options ask " + options.bufferSize() + " (maxMessageSize + header)");
        }
        int needed = options.receiveBuffers();
        PoolLedger.Reservation reservation = ledger.reserve(needed);
        if (reservation == null) {
            int free = ledger.buffers() - ledger.reservedBuffers();
            throw new MessagingException("shared receive pool on " + deviceName() + ": a channel needs " + needed
                    + " buffers (receive credits + " + ChannelOptions.CONTROL_RESERVE + "), " + free + " of "
                    + ledger.buffers() + " are free: make the pool for more channels, or give channels fewer credits",
                    null);
        }
        return reservation;
    }

    /** {@code channel} runs on the pool; one made while the pool closed fails at once. */
    void attach(MessageChannel channel) {
        attached.add(channel);
        if (closed) {
            channel.failures().poolClosed(deviceName());
        }
    }

    /** {@code channel} closed: the pool no longer needs to fail it. */
    void forget(MessageChannel channel) {
        attached.remove(channel);
    }

    /** Buffer {@code slot} completed on {@code reservation}'s queue pair: it is that channel's until given back. */
    void taken(int slot, PoolLedger.Reservation reservation) {
        ledger.taken(slot, reservation);
    }

    /**
     * Posts buffer {@code slot} back to the SRQ, if {@code reservation} still holds it (a release
     * racing the channel's close posts it once).
     *
     * @throws dev.panamaverbs.VerbsException when {@code ibv_post_srq_recv} fails
     * @throws IllegalStateException when the pool closed meanwhile
     */
    void giveBack(int slot, PoolLedger.Reservation reservation) {
        if (ledger.giveBack(slot, reservation)) {
            post(slot);
        }
    }

    /** {@code ibv_post_srq_recv} of buffer {@code slot}, unless the pool is closed (its SRQ goes with it). */
    private void post(int slot) {
        if (!closed) {
            queue.postReceive(buffers.receives[slot]);
        }
    }

    /**
     * The channel closed (its queue pair destroyed, its completions no longer drained): its
     * buffers that no message holds (a rendezvous offer being read, a failed completion) go back
     * to the SRQ, its reservation is returned, and the buffers its messages still hold stay
     * counted until they are released.
     */
    void detach(PoolLedger.Reservation reservation) {
        ledger.detach(reservation, slot -> buffers.slots.current(slot).isHeld(), slot -> {
            try {
                post(slot);
            } catch (RuntimeException closing) {
                // the pool is closing: its queue goes with it
            }
        });
    }

    /**
     * Fails the channels still on the pool (each disconnected, its waiters woken with a
     * {@link MessagingException}), then closes the queue pairs still on the SRQ, the SRQ, region,
     * protection domain and the anchoring identifier ({@code rdma_destroy_id}). Idempotent.
     */
    @Override
    public void close() {
        closed = true; // no buffer is posted again from now on, and no channel attaches unfailed
        for (MessageChannel channel : attached) {
            channel.failures().poolClosed(deviceName());
        }
        cmChannel.close(); // idempotent
    }

    @Override
    public String toString() {
        return "SharedReceivePool[" + deviceName() + ", " + ledger.buffers() + " x " + bufferSize + " B, "
                + ledger.reservedBuffers() + " reserved" + (closed ? ", closed" : "") + "]";
    }
}
