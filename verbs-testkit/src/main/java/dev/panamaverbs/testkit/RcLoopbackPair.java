package dev.panamaverbs.testkit;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.util.EnumSet;
import java.util.Set;
import java.util.Objects;

/**
 * Two RC (or UC) queue pairs on one device, connected to each other and in RTS: the smallest
 * setup that moves data over a real device. Each side has its own completion queue (sends and
 * receives of a side complete there) and its own {@link RegisteredBuffer} with full access;
 * {@link #first()} is connected to {@link #second()}.
 *
 * <pre>{@code
 * try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
 *     pair.first().postSend(...);          // to pair.second()
 *     CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
 * }
 * }</pre>
 * Closing closes the context, which closes everything else in the order the kernel accepts; a pair
 * opened on a caller's context ({@link #open(Context, TestDevice)}) closes only what it created.
 * The queue pairs are connected with {@code ibv_modify_qp}, without a connection manager: on a
 * device without {@link DeviceCapability#CONNECT_WITHOUT_CM} (iWARP, e.g. siw) opening a pair
 * skips the calling test with that capability as the reason.
 */
public final class RcLoopbackPair extends LoopbackFixture {
    /** Buffer size of each side unless asked otherwise. */
    public static final int DEFAULT_BUFFER_SIZE = 64 * 1024;
    /** The first send PSN of each side (the peer's receive PSN). */
    static final int FIRST_PSN = 0x1234;

    private RcLoopbackPair(Context context, boolean ownsContext, TestDevice device, QueuePairType type, int bufferSize,
                           int maxInlineData) {
        this(context, ownsContext, device, type, bufferSize, maxInlineData, Set.of(), ReadyToSendOptions.DEFAULT_RETRY_COUNT);
    }

    private RcLoopbackPair(Context context, boolean ownsContext, TestDevice device, QueuePairType type, int bufferSize,
                           int maxInlineData, Set<WorkRequestOpcode> extendedSendOperations, int retryCount) {
        super(context, ownsContext, device, DeviceCapability.CONNECT_WITHOUT_CM, queue -> options(type, queue, maxInlineData, extendedSendOperations),
                connection(type, retryCount), bufferSize);
    }

    /**
     * An RC pair with the default buffers whose queue pairs are created through
     * {@code ibv_create_qp_ex} with {@code extendedSendOperations} as {@code send_ops_flags}, so
     * that both post through {@link dev.panamaverbs.SendBatch} (and {@code postSend}).
     *
     * @param device the test device (and port) to open the pair on
     * @param maxInlineData the maximum inline data size in bytes
     * @param extendedSendOperations the operations of the extended post API (not empty)
     * @return the pair
     */
    public static RcLoopbackPair openExtended(TestDevice device, int maxInlineData,
                                              Set<WorkRequestOpcode> extendedSendOperations) {
        Objects.requireNonNull(device, "device");
        if (extendedSendOperations.isEmpty()) {
            throw new IllegalArgumentException("an extended pair needs at least one extended send operation");
        }
        return new RcLoopbackPair(openContext(device), true, device, QueuePairType.RC, DEFAULT_BUFFER_SIZE, maxInlineData,
                extendedSendOperations, ReadyToSendOptions.DEFAULT_RETRY_COUNT);
    }

    /**
     * An RC pair with the default sizes whose queue pairs go to RTS with {@code retry_cnt}
     * {@code retryCount} ({@code ibv_modify_qp}) instead of
     * {@link ReadyToSendOptions#DEFAULT_RETRY_COUNT}: for tests of what a peer that no longer
     * answers does to the side still sending.
     *
     * @param device the test device (and port) to open the pair on
     * @param retryCount the transport retry count of both queue pairs, 0 to 7
     * @return the pair
     */
    public static RcLoopbackPair openWithRetryCount(TestDevice device, int retryCount) {
        Objects.requireNonNull(device, "device");
        return new RcLoopbackPair(openContext(device), true, device, QueuePairType.RC, DEFAULT_BUFFER_SIZE, 0, Set.of(),
                retryCount);
    }

    /**
     * An RC pair on the test device with the default sizes.
     *
     * @param device the test device (and port) to open the pair on
     * @return an RC pair on the test device with the default sizes
     */
    public static RcLoopbackPair open(TestDevice device) {
        return open(device, QueuePairType.RC, DEFAULT_BUFFER_SIZE, 0);
    }

    /**
     * A connected pair of {@code type} (RC or UC) on {@code device}, with buffers of
     * {@code bufferSize} bytes and {@code maxInlineData} inline bytes per send.
     *
     * @param device the test device (and port) to open the pair on
     * @param type the transport, RC or UC
     * @param bufferSize the buffer size in bytes
     * @param maxInlineData the maximum inline data size in bytes
     * @return a connected pair of {@code type} (RC or UC) on {@code device}, with buffers of {@code bufferSize} bytes and {@code maxInlineData} inline bytes per send
     */
    public static RcLoopbackPair open(TestDevice device, QueuePairType type, int bufferSize, int maxInlineData) {
        Objects.requireNonNull(device, "device");
        checkType(type);
        return new RcLoopbackPair(openContext(device), true, device, type, bufferSize, maxInlineData);
    }

    /**
     * An RC pair with the default sizes on the caller's {@code context} of {@code device} (e.g.
     * the one a device test gets injected). Closing the pair closes what it created and leaves
     * the context open.
     *
     * @throws IllegalArgumentException if {@code context} is not open on {@code device}
     * @param context the device context
     * @param device the test device (and port) to open the pair on
     * @return an RC pair with the default sizes on the caller's {@code context} of {@code device}
     */
    public static RcLoopbackPair open(Context context, TestDevice device) {
        return open(context, device, QueuePairType.RC, DEFAULT_BUFFER_SIZE, 0);
    }

    /**
     * As {@link #open(TestDevice, QueuePairType, int, int)}, on the caller's {@code context} of
     * {@code device}, which closing the pair leaves open.
     *
     * @throws IllegalArgumentException if {@code context} is not open on {@code device}
     * @param context the device context
     * @param device the test device (and port) to open the pair on
     * @param type the transport, RC or UC
     * @param bufferSize the buffer size in bytes
     * @param maxInlineData the maximum inline data size in bytes
     * @return this rc loopback pair
     */
    public static RcLoopbackPair open(Context context, TestDevice device, QueuePairType type, int bufferSize,
                                      int maxInlineData) {
        requireContextOf(device, context);
        checkType(type);
        return new RcLoopbackPair(context, false, device, type, bufferSize, maxInlineData);
    }

    private static void checkType(QueuePairType type) {
        if (type != QueuePairType.RC && type != QueuePairType.UC) {
            throw new IllegalArgumentException("a loopback pair is RC or UC, not " + type);
        }
    }

    private static QueuePairOptions options(QueuePairType type, CompletionQueue queue, int maxInlineData,
                                            Set<WorkRequestOpcode> extendedSendOperations) {
        return QueuePairOptions.builder(type, queue)
                .maxSendWorkRequests(64).maxReceiveWorkRequests(64)
                .maxSendSge(4).maxReceiveSge(4).maxInlineData(maxInlineData)
                .extendedSendOperations(extendedSendOperations)
                .build();
    }

    /** Connects each queue pair to the other (RESET -> INIT -> RTR), then both to RTS. */
    private static Activation connection(QueuePairType type, int retryCount) {
        EnumSet<AccessFlag> access = type == QueuePairType.RC
                ? EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC)
                : EnumSet.of(AccessFlag.REMOTE_WRITE);
        return (first, second, endpoints) -> {
            connect(first, second, endpoints, access);
            connect(second, first, endpoints, access);
            ReadyToSendOptions send = ReadyToSendOptions.withPsn(FIRST_PSN).withRetryCount(retryCount);
            first.toRts(send);
            second.toRts(send);
        };
    }

    /** RESET -> INIT -> RTR of {@code local}, pointed at {@code remote}. */
    private static void connect(QueuePair local, QueuePair remote, LoopbackEndpoints endpoints, EnumSet<AccessFlag> access) {
        if (local.state() == dev.panamaverbs.values.QueuePairState.RESET) {
            local.toInit(endpoints.port(), 0, access);
        }
        Mtu mtu = endpoints.portAttributes().activeMtu();
        RemoteEndpoint peer = endpoints.gid() != null
                ? RemoteEndpoint.global(remote.number(), FIRST_PSN, endpoints.gid(), endpoints.gidIndex(), mtu)
                : RemoteEndpoint.local(remote.number(), FIRST_PSN, endpoints.lid(), mtu);
        local.toRtr(peer);
    }
}
