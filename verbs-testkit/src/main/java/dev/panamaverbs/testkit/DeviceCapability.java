package dev.panamaverbs.testkit;

import dev.panamaverbs.Context;
import dev.panamaverbs.values.AtomicCapability;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.LinkLayer;
import dev.panamaverbs.values.TransportType;
import java.util.Objects;
import java.util.Optional;
import org.opentest4j.TestAbortedException;

/**
 * What a device test may need that not every provider has, decided from what the library reports
 * ({@link dev.panamaverbs.Device#transportType()}, {@link Context#queryDevice()}), never from the
 * device's name. A test that needs one calls {@link #require(Context)}: on a device without it the
 * test is skipped (aborted) with a reason naming the capability and the reported value that lacks
 * it, e.g. {@code capability ATOMICS: siw0 reports atomic_cap NONE}.
 *
 * <p>soft-iWARP ({@code siw}, docs/siw.md) has only {@link #SHARED_RECEIVE_QUEUES} of them;
 * SoftRoCE ({@code rxe}) has them all.
 */
public enum DeviceCapability {
    /** Atomic operations (fetch-and-add, compare-and-swap): {@code atomic_cap} is not {@code IBV_ATOMIC_NONE}. */
    ATOMICS,
    /** Unreliable datagram queue pairs: the InfiniBand transport (RoCE included); iWARP has no UD. */
    UD,
    /** Memory windows: {@code max_mw} above 0. */
    MEMORY_WINDOWS,
    /** Shared receive queues: {@code max_srq} above 0. */
    SHARED_RECEIVE_QUEUES,
    /**
     * Connecting RC/UC queue pairs with {@code ibv_modify_qp} to endpoints exchanged out of band
     * (GID, QP number, PSN): the InfiniBand transport. An iWARP queue pair reaches RTS only through
     * a connection its connection manager made ({@code rdma_cm}): siw refuses RTS without one
     * (EINVAL).
     */
    CONNECT_WITHOUT_CM,
    /** Unreliable connected queue pairs: the InfiniBand transport; iWARP has RC only. */
    UC,
    /**
     * Receiver-not-ready NAKs (a SEND meeting no posted receive is retried, then fails with
     * {@code RNR_RETRY_EXC_ERR}) and the port counters that count them: the InfiniBand transport;
     * iWARP (over TCP) has none.
     */
    RNR_NAKS,
    /**
     * A queue pair's error (a failed RDMA READ, say) leaves its connection up until a side
     * disconnects: the InfiniBand transport. On iWARP the error ends the connection itself (an
     * RDMAP Terminate, then the TCP stream closes), so the connection's loss can be seen before the
     * error's completion.
     */
    ERRORS_KEEP_THE_CONNECTION,
    /** Partition keys ({@code ibv_query_pkey}, the default key 0xffff): the InfiniBand transport; iWARP has none. */
    PARTITION_KEYS,
    /**
     * RoCE: the InfiniBand transport on an Ethernet link layer, whose GID table holds GIDs made
     * from the netdev's IP addresses, typed RoCE v1/v2 (an iWARP device's GID is its MAC).
     */
    ROCE;

    /**
     * What decides the capabilities: the device's transport and the attributes it reports.
     *
     * @param transport  {@code ibv_device.transport_type}
     * @param atomics    {@code ibv_device_attr.atomic_cap}
     * @param maxMw      {@code ibv_device_attr.max_mw}
     * @param maxSrq     {@code ibv_device_attr.max_srq}
     * @param linkLayer  {@code ibv_port_attr.link_layer} of port 1
     */
    public record Facts(TransportType transport, AtomicCapability atomics, int maxMw, int maxSrq, LinkLayer linkLayer) {
        /** Checks the components. */
        public Facts {
            Objects.requireNonNull(transport, "transport");
            Objects.requireNonNull(atomics, "atomics");
            Objects.requireNonNull(linkLayer, "linkLayer");
        }

        /**
         * What {@code context}'s device reports ({@code ibv_query_device}, {@code ibv_query_port}
         * of port 1).
         *
         * @param context an open context
         * @return its facts
         */
        public static Facts of(Context context) {
            DeviceAttributes attributes = context.queryDevice();
            return new Facts(context.device().transportType(), attributes.atomicCapability(),
                    attributes.maxMw(), attributes.maxSrq(), context.queryPort(1).linkLayer());
        }
    }

    /**
     * Why a device with {@code facts} lacks this capability, naming the reported value; empty when
     * it has it.
     *
     * @param facts what the device reports
     * @return the reported value that rules the capability out, if any
     */
    public Optional<String> lackedBecause(Facts facts) {
        Objects.requireNonNull(facts, "facts");
        return switch (this) {
            case ATOMICS -> facts.atomics() == AtomicCapability.NONE
                    ? Optional.of("atomic_cap " + facts.atomics()) : Optional.empty();
            case UD, CONNECT_WITHOUT_CM, UC, RNR_NAKS, ERRORS_KEEP_THE_CONNECTION, PARTITION_KEYS -> facts.transport() == TransportType.IB
                    ? Optional.empty() : Optional.of("transport " + facts.transport());
            case ROCE -> facts.transport() != TransportType.IB ? Optional.of("transport " + facts.transport())
                    : facts.linkLayer() != LinkLayer.ETHERNET ? Optional.of("link_layer " + facts.linkLayer())
                    : Optional.empty();
            case MEMORY_WINDOWS -> facts.maxMw() > 0 ? Optional.empty() : Optional.of("max_mw " + facts.maxMw());
            case SHARED_RECEIVE_QUEUES -> facts.maxSrq() > 0 ? Optional.empty() : Optional.of("max_srq " + facts.maxSrq());
        };
    }

    /**
     * Whether the device of {@code context} has this capability.
     *
     * @param context an open context
     * @return true when it has it
     */
    public boolean isSupportedBy(Context context) {
        return lackedBecause(Facts.of(context)).isEmpty();
    }

    /**
     * Skips the calling test (a JUnit assumption) when the device of {@code context} lacks this
     * capability; the reason names the capability, the device and the reported value.
     *
     * @param context an open context
     * @throws TestAbortedException when the device lacks it
     */
    public void require(Context context) {
        Optional<String> lacking = lackedBecause(Facts.of(context));
        if (lacking.isPresent()) {
            throw new TestAbortedException(skipReason(context.device().name(), lacking.get()));
        }
    }

    /**
     * As {@link #require(Context)}, on a context of {@code device} opened for the check and closed
     * again (for a test that has no context yet, or hands the device to a child JVM).
     *
     * @param device the test device
     * @throws TestAbortedException when the device lacks it
     */
    public void require(TestDevice device) {
        try (Context context = LoopbackFixture.openContext(device)) {
            require(context);
        }
    }

    /**
     * The skip reason for a device named {@code deviceName} that lacks this capability because of
     * {@code reportedValue}.
     *
     * @param deviceName the device
     * @param reportedValue what it reports, e.g. {@code atomic_cap NONE}
     * @return e.g. {@code capability ATOMICS: siw0 reports atomic_cap NONE}
     */
    public String skipReason(String deviceName, String reportedValue) {
        return "capability " + name() + ": " + deviceName + " reports " + reportedValue;
    }
}
