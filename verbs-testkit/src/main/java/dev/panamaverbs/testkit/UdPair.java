package dev.panamaverbs.testkit;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QpType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.Verbs;
import java.util.Objects;

/**
 * Two UD queue pairs on one device, both in RTS with the Q_Key {@link #QKEY}, and an address
 * handle that reaches the port they share (with a GRH on RoCE): each can send datagrams to the
 * other with {@code ud(addressHandle(), peer.number(), QKEY)}. Each side has its own completion
 * queue and {@link RegisteredBuffer}. Receive buffers need {@link #GRH_BYTES} in front of the
 * payload: UD receives start with the 40-byte GRH (filled on RoCE, undefined otherwise).
 */
public final class UdPair implements AutoCloseable {
    /** The Q_Key of both queue pairs. */
    public static final int QKEY = 0x11111111;
    /** Bytes a UD receive reserves for the global route header before the payload. */
    public static final int GRH_BYTES = 40;

    private final Context context;
    private final ProtectionDomain protectionDomain;
    private final CompletionQueue firstQueue;
    private final CompletionQueue secondQueue;
    private final QueuePair first;
    private final QueuePair second;
    private final AddressHandle addressHandle;
    private final RegisteredBuffer firstBuffer;
    private final RegisteredBuffer secondBuffer;
    private final Completions completions = Completions.allocate(16);

    private UdPair(Context context, ProtectionDomain pd, CompletionQueue firstQueue, CompletionQueue secondQueue,
                   QueuePair first, QueuePair second, AddressHandle addressHandle,
                   RegisteredBuffer firstBuffer, RegisteredBuffer secondBuffer) {
        this.context = context;
        this.protectionDomain = pd;
        this.firstQueue = firstQueue;
        this.secondQueue = secondQueue;
        this.first = first;
        this.second = second;
        this.addressHandle = addressHandle;
        this.firstBuffer = firstBuffer;
        this.secondBuffer = secondBuffer;
    }

    /** A UD pair on {@code device} with 16 KiB buffers. */
    public static UdPair open(TestDevice device) {
        return open(device, 16 * 1024);
    }

    /** A UD pair on {@code device} with buffers of {@code bufferSize} bytes. */
    public static UdPair open(TestDevice device, int bufferSize) {
        Objects.requireNonNull(device, "device");
        Context context = Verbs.device(device.name())
                .orElseThrow(() -> new IllegalStateException("no RDMA device named " + device.name()))
                .open();
        try {
            LoopbackEndpoints endpoints = LoopbackEndpoints.of(context, device.port(), device.gidIndex());
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionQueue firstQueue = context.createCompletionQueue(256);
            CompletionQueue secondQueue = context.createCompletionQueue(256);
            QueuePair first = pd.createQueuePair(options(firstQueue));
            QueuePair second = pd.createQueuePair(options(secondQueue));
            for (QueuePair qp : new QueuePair[] {first, second}) {
                qp.toInit(endpoints.port(), 0, QKEY);
                qp.toRtr();
                qp.toRts();
            }
            AddressHandleAttributes route = endpoints.gid() != null
                    ? AddressHandleAttributes.global(endpoints.port(), endpoints.gidIndex(), endpoints.gid())
                    : AddressHandleAttributes.local(endpoints.port(), endpoints.lid());
            AddressHandle addressHandle = pd.createAddressHandle(route);
            RegisteredBuffer firstBuffer = RegisteredBuffer.allocate(pd, bufferSize);
            RegisteredBuffer secondBuffer = RegisteredBuffer.allocate(pd, bufferSize);
            return new UdPair(context, pd, firstQueue, secondQueue, first, second, addressHandle, firstBuffer, secondBuffer);
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    private static QueuePairOptions options(CompletionQueue queue) {
        return QueuePairOptions.builder(QpType.UD, queue)
                .maxSendWorkRequests(64).maxReceiveWorkRequests(64).maxSendSge(2).maxReceiveSge(2)
                .build();
    }

    /** The device context (closing it closes everything). */
    public Context context() {
        return context;
    }

    /** The protection domain of both queue pairs, the address handle and the buffers. */
    public ProtectionDomain protectionDomain() {
        return protectionDomain;
    }

    /** The first UD queue pair. */
    public QueuePair first() {
        return first;
    }

    /** The second UD queue pair. */
    public QueuePair second() {
        return second;
    }

    /** Where the first queue pair's sends and receives complete. */
    public CompletionQueue firstQueue() {
        return firstQueue;
    }

    /** Where the second queue pair's sends and receives complete. */
    public CompletionQueue secondQueue() {
        return secondQueue;
    }

    /** Reaches the shared port: valid for sends from either queue pair to the other. */
    public AddressHandle addressHandle() {
        return addressHandle;
    }

    /** The first side's registered buffer. */
    public RegisteredBuffer firstBuffer() {
        return firstBuffer;
    }

    /** The second side's registered buffer. */
    public RegisteredBuffer secondBuffer() {
        return secondBuffer;
    }

    /** A 16-entry completion batch for polling either queue (one poller at a time). */
    public Completions completions() {
        return completions;
    }

    /** Closes the buffers and the context (which closes everything else first). */
    @Override
    public void close() {
        try {
            firstBuffer.close();
            secondBuffer.close();
        } finally {
            context.close();
        }
    }
}
