package dev.panamaverbs.values;

import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.ibv_global_route;
import dev.panamaverbs.ffm.ibv_qp_attr;
import dev.panamaverbs.ffm.ibv_qp_cap;
import dev.panamaverbs.ffm.ibv_qp_init_attr;
import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A snapshot of a queue pair as {@code ibv_query_qp} reports it ({@code struct ibv_qp_attr} plus
 * the {@code sq_sig_all} of {@code struct ibv_qp_init_attr}). Unsigned C fields are widened.
 *
 * @param state                {@code qp_state}
 * @param currentState         {@code cur_qp_state}
 * @param pathMtu              {@code path_mtu} ({@code null} if the provider reports a value this version does not know)
 * @param pathMigrationState   {@code path_mig_state} ({@code null} if unknown)
 * @param qkey                 {@code qkey} (UD)
 * @param rqPsn                {@code rq_psn}
 * @param sqPsn                {@code sq_psn}
 * @param destQpn              {@code dest_qp_num}
 * @param accessFlags          {@code qp_access_flags}
 * @param capabilities         {@code cap}
 * @param path                 {@code ah_attr}
 * @param pkeyIndex            {@code pkey_index}
 * @param sqDraining           {@code sq_draining}
 * @param maxReadAtomic        {@code max_rd_atomic}
 * @param maxDestReadAtomic    {@code max_dest_rd_atomic}
 * @param minRnrTimer          {@code min_rnr_timer}
 * @param port                 {@code port_num}
 * @param timeout              {@code timeout}
 * @param retryCount           {@code retry_cnt}
 * @param rnrRetry             {@code rnr_retry}
 * @param rateLimit            {@code rate_limit} (kbps, 0 = none)
 * @param signalAll            {@code sq_sig_all} of the init attributes
 */
public record QueuePairAttributes(
        QueuePairState state, QueuePairState currentState, Mtu pathMtu, MigrationState pathMigrationState,
        long qkey, int rqPsn, int sqPsn, int destQpn, Set<AccessFlag> accessFlags,
        QueuePairCapabilities capabilities, Path path, int pkeyIndex, boolean sqDraining,
        int maxReadAtomic, int maxDestReadAtomic, int minRnrTimer, int port, int timeout,
        int retryCount, int rnrRetry, long rateLimit, boolean signalAll) {

    /** Copies the flag set. */
    public QueuePairAttributes {
        accessFlags = Set.copyOf(accessFlags);
    }

    /**
     * The Q_Key's 32 bits as the {@code int} {@code SendWorkRequest.ud} takes (the same bits as
     * {@link #qkey()}, which is unsigned).
     *
     * @return the Q_Key as an int
     */
    public int qkeyAsInt() {
        return (int) qkey;
    }

    /**
     * The primary path's address vector ({@code struct ibv_ah_attr}).
     *
     * @param dlid          {@code dlid}
     * @param serviceLevel  {@code sl}
     * @param staticRate    {@code static_rate}
     * @param isGlobal      {@code is_global}: a GRH is used
     * @param dgid          {@code grh.dgid} (all zeros without a GRH)
     * @param sgidIndex     {@code grh.sgid_index}
     * @param hopLimit      {@code grh.hop_limit}
     * @param trafficClass  {@code grh.traffic_class}
     * @param flowLabel     {@code grh.flow_label}
     * @param port          {@code port_num}
     */
    public record Path(int dlid, int serviceLevel, int staticRate, boolean isGlobal, Gid dgid,
                       int sgidIndex, int hopLimit, int trafficClass, int flowLabel, int port) {
        static Path read(MemorySegment ahAttr) {
            MemorySegment grh = ibv_ah_attr.grh(ahAttr);
            return new Path(
                    Short.toUnsignedInt(ibv_ah_attr.dlid(ahAttr)),
                    Byte.toUnsignedInt(ibv_ah_attr.sl(ahAttr)),
                    Byte.toUnsignedInt(ibv_ah_attr.static_rate(ahAttr)),
                    ibv_ah_attr.is_global(ahAttr) != 0,
                    Gid.read(ibv_global_route.dgid(grh)),
                    Byte.toUnsignedInt(ibv_global_route.sgid_index(grh)),
                    Byte.toUnsignedInt(ibv_global_route.hop_limit(grh)),
                    Byte.toUnsignedInt(ibv_global_route.traffic_class(grh)),
                    ibv_global_route.flow_label(grh),
                    Byte.toUnsignedInt(ibv_ah_attr.port_num(ahAttr)));
        }
    }

    /**
     * Reads what {@code ibv_query_qp} filled in.
     *
     * @param attr     the filled {@code struct ibv_qp_attr}
     * @param initAttr the filled {@code struct ibv_qp_init_attr}
     * @return the attributes
     */
    public static QueuePairAttributes read(MemorySegment attr, MemorySegment initAttr) {
        return new QueuePairAttributes(
                QueuePairState.orNull(ibv_qp_attr.qp_state(attr)),
                QueuePairState.orNull(ibv_qp_attr.cur_qp_state(attr)),
                Mtu.orNull(ibv_qp_attr.path_mtu(attr)),
                MigrationState.orNull(ibv_qp_attr.path_mig_state(attr)),
                Integer.toUnsignedLong(ibv_qp_attr.qkey(attr)),
                ibv_qp_attr.rq_psn(attr),
                ibv_qp_attr.sq_psn(attr),
                ibv_qp_attr.dest_qp_num(attr),
                BitFlag.fromBits(AccessFlag.class, ibv_qp_attr.qp_access_flags(attr)),
                readCapabilities(ibv_qp_attr.cap(attr)),
                Path.read(ibv_qp_attr.ah_attr(attr)),
                Short.toUnsignedInt(ibv_qp_attr.pkey_index(attr)),
                ibv_qp_attr.sq_draining(attr) != 0,
                Byte.toUnsignedInt(ibv_qp_attr.max_rd_atomic(attr)),
                Byte.toUnsignedInt(ibv_qp_attr.max_dest_rd_atomic(attr)),
                Byte.toUnsignedInt(ibv_qp_attr.min_rnr_timer(attr)),
                Byte.toUnsignedInt(ibv_qp_attr.port_num(attr)),
                Byte.toUnsignedInt(ibv_qp_attr.timeout(attr)),
                Byte.toUnsignedInt(ibv_qp_attr.retry_cnt(attr)),
                Byte.toUnsignedInt(ibv_qp_attr.rnr_retry(attr)),
                Integer.toUnsignedLong(ibv_qp_attr.rate_limit(attr)),
                ibv_qp_init_attr.sq_sig_all(initAttr) != 0);
    }

    /**
     * Reads a {@code struct ibv_qp_cap}.
     *
     * @param cap a filled {@code struct ibv_qp_cap}
     * @return the capabilities
     */
    public static QueuePairCapabilities readCapabilities(MemorySegment cap) {
        return new QueuePairCapabilities(
                ibv_qp_cap.max_send_wr(cap), ibv_qp_cap.max_recv_wr(cap), ibv_qp_cap.max_send_sge(cap),
                ibv_qp_cap.max_recv_sge(cap), ibv_qp_cap.max_inline_data(cap));
    }
}
