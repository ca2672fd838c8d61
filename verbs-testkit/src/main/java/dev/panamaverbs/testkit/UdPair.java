package dev.panamaverbs.testkit;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.util.Set;

/**
 * Two UD queue pairs on one device, both in RTS with the Q_Key {@link #QKEY}, and an address
 * handle that reaches the port they share (with a GRH on RoCE): each can send datagrams to the
 * other with {@code ud(addressHandle(), peer.number(), QKEY)}. Each side has its own completion
 * queue and {@link RegisteredBuffer}. Receive buffers need {@link #GRH_BYTES} in front of the
 * payload: UD receives start with the 40-byte GRH (filled on RoCE, undefined otherwise).
 * Closing closes the context; a pair opened on a caller's context closes only what it created.
 */
public final class UdPair extends LoopbackFixture {
    /** The Q_Key of both queue pairs. */
    public static final int QKEY = 0x11111111;
    /** Bytes a UD receive reserves for the global route header before the payload. */
    public static final int GRH_BYTES = 40;

    private final AddressHandle addressHandle;

    private UdPair(Context context, boolean ownsContext, TestDevice device, int bufferSize) {
        this(context, ownsContext, device, bufferSize, Set.of());
    }

    private UdPair(Context context, boolean ownsContext, TestDevice device, int bufferSize,
                   Set<WorkRequestOpcode> extendedSendOperations) {
        super(context, ownsContext, device, queue -> options(queue, extendedSendOperations), UdPair::toRts, bufferSize);
        try {
            addressHandle = protectionDomain().createAddressHandle(routeToThePort(endpoints()));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * A UD pair on {@code device} with 16 KiB buffers.
     *
     * @param device the test device (and port) to open the pair on
     * @return a UD pair on {@code device} with 16 KiB buffers
     */
    public static UdPair open(TestDevice device) {
        return open(device, 16 * 1024);
    }

    /**
     * A UD pair on {@code device} with buffers of {@code bufferSize} bytes.
     *
     * @param device the test device (and port) to open the pair on
     * @param bufferSize the buffer size in bytes
     * @return a UD pair on {@code device} with buffers of {@code bufferSize} bytes
     */
    public static UdPair open(TestDevice device, int bufferSize) {
        return new UdPair(openContext(device), true, device, bufferSize);
    }

    /**
     * A UD pair with 16 KiB buffers on the caller's {@code context} of {@code device} (e.g. the one
     * a device test gets injected). Closing the pair closes what it created and leaves the context open.
     *
     * @throws IllegalArgumentException if {@code context} is not open on {@code device}
     * @param context the device context
     * @param device the test device (and port) to open the pair on
     * @return a UD pair with 16 KiB buffers on the caller's {@code context} of {@code device}
     */
    public static UdPair open(Context context, TestDevice device) {
        return open(context, device, 16 * 1024);
    }

    /**
     * As {@link #open(Context, TestDevice)}, with buffers of {@code bufferSize} bytes.
     *
     * @param context the device context
     * @param device the test device (and port) to open the pair on
     * @param bufferSize the buffer size in bytes
     * @return this ud pair
     */
    public static UdPair open(Context context, TestDevice device, int bufferSize) {
        return new UdPair(requireContextOf(device, context), false, device, bufferSize);
    }

    /**
     * A UD pair with 16 KiB buffers whose queue pairs are created through {@code ibv_create_qp_ex}
     * with {@code extendedSendOperations} as {@code send_ops_flags}: they post through
     * {@link dev.panamaverbs.SendBatch} too.
     *
     * @param device the test device (and port) to open the pair on
     * @param extendedSendOperations the operations of the extended post API (SEND, SEND_WITH_IMM)
     * @return the pair
     */
    public static UdPair openExtended(TestDevice device, Set<WorkRequestOpcode> extendedSendOperations) {
        if (extendedSendOperations.isEmpty()) {
            throw new IllegalArgumentException("an extended pair needs at least one extended send operation");
        }
        return new UdPair(openContext(device), true, device, 16 * 1024, extendedSendOperations);
    }

    private static QueuePairOptions options(CompletionQueue queue, Set<WorkRequestOpcode> extendedSendOperations) {
        return QueuePairOptions.builder(QueuePairType.UD, queue)
                .maxSendWorkRequests(64).maxReceiveWorkRequests(64).maxSendSge(2).maxReceiveSge(2)
                .extendedSendOperations(extendedSendOperations)
                .build();
    }

    /** RESET -> INIT (with {@link #QKEY}) -> RTR -> RTS of both. */
    private static void toRts(QueuePair first, QueuePair second, LoopbackEndpoints endpoints) {
        for (QueuePair qp : new QueuePair[] {first, second}) {
            qp.toInit(endpoints.port(), 0, QKEY);
            qp.toRtr();
            qp.toRts();
        }
    }

    /** To the shared port: by GID with a GRH on RoCE, else by LID. */
    private static AddressHandleAttributes routeToThePort(LoopbackEndpoints endpoints) {
        return endpoints.gid() != null
                ? AddressHandleAttributes.global(endpoints.port(), endpoints.gidIndex(), endpoints.gid())
                : AddressHandleAttributes.local(endpoints.port(), endpoints.lid());
    }

    /**
     * Reaches the shared port: valid for sends from either queue pair to the other.
     *
     * @return the address handle
     */
    public AddressHandle addressHandle() {
        return addressHandle;
    }
}
