package dev.panamaverbs.benchmarks;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Two RC queue pairs on one device, connected to each other and in RTS, built through the
 * public core API only (the same setup as the testkit's {@code RcLoopbackPair}, which the
 * benchmarks cannot use: the testkit depends on JUnit). Side A and side B each have their own
 * completion queue (sends and receives of a side complete there) and their own registered
 * buffer with local write, remote write, remote read and remote atomic access (the queue pairs
 * accept remote writes, reads and atomics).
 *
 * <p>The device is chosen like the device tests choose theirs ({@link Setting}): the system property
 * {@code panamaverbs.bench.device}, else the environment variable {@code VERBS_TEST_DEVICE} (the rxe VM sets
 * it to {@code rxe0}), else the first device listed. Port: {@code panamaverbs.bench.port} /
 * {@code VERBS_TEST_PORT}, default 1. GID index (RoCE): {@code panamaverbs.bench.gidIndex} /
 * {@code VERBS_TEST_GID_INDEX}, else the port's RoCE v2 IPv4-mapped GID (chosen by type), else 0.
 */
public record LoopbackPair(Context context, ProtectionDomain protectionDomain, CompletionQueue queueA, CompletionQueue queueB,
                   QueuePair a, QueuePair b, MemoryRegion bufferA, MemoryRegion bufferB, String description)
        implements AutoCloseable {
    /** A choice the benchmarks read from a system property, else an environment variable. */
    enum Setting {
        DEVICE("panamaverbs.bench.device", "VERBS_TEST_DEVICE"),
        PORT("panamaverbs.bench.port", "VERBS_TEST_PORT"),
        GID_INDEX("panamaverbs.bench.gidIndex", "VERBS_TEST_GID_INDEX");

        final String property;
        final String variable;

        Setting(String property, String variable) {
            this.property = property;
            this.variable = variable;
        }

        /** The property's value, else the variable's, stripped; empty when both are unset or blank. */
        Optional<String> value() {
            String value = System.getProperty(property);
            if (value == null || value.isBlank()) {
                value = System.getenv(variable);
            }
            return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
        }
    }

    /** The first PSN of each side. */
    private static final int FIRST_PSN = 0x1234;

    /**
     * Opens the configured device and connects the pair.
     *
     * @param workRequests send and receive queue depth of each queue pair
     * @param bufferSize   bytes of each side's registered buffer
     * @throws NoDeviceException when libibverbs is unavailable or there is no (such) device
     */
    public static LoopbackPair open(int workRequests, int bufferSize) {
        return open(workRequests, bufferSize, Set.of());
    }

    /**
     * As {@link #open(int, int)}, both queue pairs created with {@code extendedSendOperations}
     * ({@code ibv_create_qp_ex} with these {@code send_ops_flags}), so that a {@code SendBatch}
     * can post on them as well as {@code postSend}.
     *
     * @param extendedSendOperations the operations of the extended post API, none for a plain queue pair
     */
    static LoopbackPair open(int workRequests, int bufferSize, Set<WorkRequestOpcode> extendedSendOperations) {
        Context context = chooseDevice().open();
        try {
            return openOn(context, workRequests, bufferSize, extendedSendOperations, false);
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    /**
     * The context of the chosen device (as {@link #open(int, int)} chooses it), for
     * {@link #openOn} to put many pairs on.
     */
    public static Context openContext() {
        return chooseDevice().open();
    }

    /**
     * A pair on the caller's {@code context}, whose close then closes that context too: for many
     * pairs on one context, close the context instead. With {@code channels}, each completion
     * queue sits on a completion channel of its own, so a thread can wait for it through the
     * poller ({@link CompletionQueue#awaitCompletions}).
     */
    static LoopbackPair openOn(Context context, int workRequests, int bufferSize,
                               Set<WorkRequestOpcode> extendedSendOperations, boolean channels) {
        Device device = context.device();
        int port = port();
        PortAttributes attributes = context.queryPort(port);
        if (!attributes.isActive()) {
            throw new NoDeviceException("port " + port + " of " + device.name() + " is "
                    + attributes.state() + ", not ACTIVE");
        }
        GidEntry gid = null;
        if (attributes.grhRequired()) {
            gid = chooseGid(context, port);
        }
        ProtectionDomain pd = context.allocateProtectionDomain();
        CompletionQueue queueA = channels ? context.createCompletionQueue(4 * workRequests, context.createCompletionChannel(), 0)
                : context.createCompletionQueue(4 * workRequests);
        CompletionQueue queueB = channels ? context.createCompletionQueue(4 * workRequests, context.createCompletionChannel(), 0)
                : context.createCompletionQueue(4 * workRequests);
        QueuePair a = pd.createQueuePair(options(queueA, workRequests, extendedSendOperations));
        QueuePair b = pd.createQueuePair(options(queueB, workRequests, extendedSendOperations));
        Set<AccessFlag> remoteAccess = EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC);
        Mtu mtu = attributes.activeMtu();
        for (QueuePair local : List.of(a, b)) {
            QueuePair remote = local == a ? b : a;
            local.toInit(port, 0, remoteAccess);
            RemoteEndpoint peer = gid != null
                    ? RemoteEndpoint.global(remote.number(), FIRST_PSN, gid.gid(), gid.index(), mtu)
                    : RemoteEndpoint.local(remote.number(), FIRST_PSN, attributes.lid(), mtu);
            local.toRtr(peer);
        }
        a.toRts(FIRST_PSN);
        b.toRts(FIRST_PSN);
        Set<AccessFlag> access = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ,
                AccessFlag.REMOTE_ATOMIC);
        MemoryRegion bufferA = pd.allocateMemoryRegion(bufferSize, access);
        MemoryRegion bufferB = pd.allocateMemoryRegion(bufferSize, access);
        String description = device.name() + " port " + port + ", "
                + (gid != null ? "GID index " + gid.index() + " (" + gid.gid().toAddressString() + ")" : "LID " + attributes.lid())
                + ", MTU " + mtu + ", RC qpn " + a.number() + " <-> " + b.number();
        return new LoopbackPair(context, pd, queueA, queueB, a, b, bufferA, bufferB, description);
    }

    /** {@return the port the benchmarks use: {@code panamaverbs.bench.port} / {@code VERBS_TEST_PORT}, else 1} */
    public static int port() {
        return Setting.PORT.value().map(Integer::parseInt).orElse(1);
    }

    private static QueuePairOptions options(CompletionQueue queue, int workRequests, Set<WorkRequestOpcode> extendedSendOperations) {
        QueuePairOptions.Builder builder = QueuePairOptions.builder(QueuePairType.RC, queue)
                .maxSendWorkRequests(workRequests).maxReceiveWorkRequests(workRequests)
                .maxSendSge(1).maxReceiveSge(1);
        if (!extendedSendOperations.isEmpty()) {
            builder.extendedSendOperations(extendedSendOperations);
        }
        return builder.build();
    }

    private static Device chooseDevice() {
        if (!Verbs.isAvailable()) {
            throw new NoDeviceException("libibverbs is unavailable: " + Verbs.unavailabilityCause().orElse("?"));
        }
        Optional<String> wanted = Setting.DEVICE.value();
        if (wanted.isPresent()) {
            return Verbs.device(wanted.get()).orElseThrow(() -> new NoDeviceException(
                    "no RDMA device named " + wanted.get() + " (asked for by -D" + Setting.DEVICE.property
                            + " or " + Setting.DEVICE.variable + "); devices: " + Verbs.devices()));
        }
        List<Device> devices = Verbs.devices();
        if (devices.isEmpty()) {
            throw new NoDeviceException("no RDMA device on this host (ibv_get_device_list is empty)");
        }
        return devices.getFirst();
    }

    private static GidEntry chooseGid(Context context, int port) {
        Optional<Integer> index = Setting.GID_INDEX.value().map(Integer::parseInt);
        if (index.isPresent()) {
            return context.queryGid(port, index.get()).orElseThrow(() -> new NoDeviceException(
                    "GID index " + index.get() + " of port " + port + " is empty"));
        }
        return context.roceV2Ipv4Gid(port)
                .or(() -> context.queryGid(port, 0))
                .orElseThrow(() -> new NoDeviceException("port " + port + " has no usable GID"));
    }

    /**
     * Polls {@code queue} into {@code completions} until it returns at least one completion, and
     * checks each returned entry succeeded; gives up after {@code timeoutNanos} (a lost completion
     * fails the benchmark instead of hanging it). Allocation-free unless it throws.
     *
     * @return how many entries were polled (at least 1)
     */
    static int pollSome(CompletionQueue queue, Completions completions, long timeoutNanos) {
        int n = queue.poll(completions);
        if (n == 0) {
            n = pollSlow(queue, completions, timeoutNanos);
        }
        for (int i = 0; i < n; i++) {
            completions.throwIfFailed(i);
        }
        return n;
    }

    /**
     * Polls {@code queue} ({@link #pollSome}) until the completion of work request {@code wrId}
     * arrives, consuming the others on the way; each poll gives up after {@code timeoutNanos}.
     */
    static void awaitWrId(CompletionQueue queue, Completions completions, long wrId, long timeoutNanos) {
        while (true) {
            int n = pollSome(queue, completions, timeoutNanos);
            for (int i = 0; i < n; i++) {
                if (completions.wrId(i) == wrId) {
                    return;
                }
            }
        }
    }

    private static int pollSlow(CompletionQueue queue, Completions completions, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        int spins = 0;
        while (true) {
            int n = queue.poll(completions);
            if (n != 0) {
                return n;
            }
            if ((++spins & 0xFFF) == 0 && System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no completion on " + queue + " within "
                        + timeoutNanos / 1_000_000 + " ms");
            }
            Thread.onSpinWait();
        }
    }

    /** Deregisters the buffers and closes the context (which closes everything else first). */
    @Override
    public void close() {
        context.close();
    }

    @Override
    public String toString() {
        return description;
    }

    /** No device to benchmark on: libibverbs missing, no device, or the configured one absent. */
    static final class NoDeviceException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NoDeviceException(String message) {
            super(message + ". The device benchmarks (RcLoopbackBench, OneSidedBench) need an RDMA device: run them with"
                    + " `./verbs bench --vm` (SoftRoCE in a VM), or on a host with one"
                    + " (e.g. `sudo rdma link add rxe0 type rxe netdev eth0`).");
        }
    }
}
