package dev.panamaverbs;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.LinkLayer;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.values.PortState;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.ibv_qp_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The checks and ibv_qp_attr contents behind the typed transitions; no device needed. */
class QpTransitionAttributesTest {
    private static final Gid GID = Gid.parse("::ffff:10.0.2.15");

    private static PortAttributes port(LinkLayer linkLayer, Mtu activeMtu) {
        return new PortAttributes(1, PortState.ACTIVE, Mtu.MTU_4096, activeMtu, 16, 0, 1L << 31, 0, 0, 1, 0, 0, 0, 1,
                0, 0, 0, 1, 1, 5, linkLayer, 0, 0);
    }

    private static void assertRejected(String text, Executable call) {
        Rejections.assertRejectedWith("ibv_modify_qp: ", text, call);
    }

    @Test
    void accessFlagsSuitTheTransport() {
        assertEquals(AccessFlag.REMOTE_WRITE.bit() | AccessFlag.REMOTE_READ.bit() | AccessFlag.REMOTE_ATOMIC.bit(),
                QueuePairTransitionAttributes.accessBits(QueuePairType.RC,
                        EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC)));
        assertEquals(AccessFlag.REMOTE_WRITE.bit(), QueuePairTransitionAttributes.accessBits(QueuePairType.UC, EnumSet.of(AccessFlag.REMOTE_WRITE)));
        assertEquals(0, QueuePairTransitionAttributes.accessBits(QueuePairType.RC, EnumSet.noneOf(AccessFlag.class)));
        assertRejected("UC supports no RDMA READ", () -> QueuePairTransitionAttributes.accessBits(QueuePairType.UC, EnumSet.of(AccessFlag.REMOTE_READ)));
        assertRejected("UC supports no RDMA READ or atomics", () -> QueuePairTransitionAttributes.accessBits(QueuePairType.UC, EnumSet.of(AccessFlag.REMOTE_ATOMIC)));
        assertRejected("Q_Key", () -> QueuePairTransitionAttributes.accessBits(QueuePairType.UD, EnumSet.noneOf(AccessFlag.class)));
        assertRejected("qp_access_flags", () -> QueuePairTransitionAttributes.accessBits(QueuePairType.RC, EnumSet.of(AccessFlag.ZERO_BASED)));
        assertRejected("qp_access_flags", () -> QueuePairTransitionAttributes.accessBits(QueuePairType.RC, EnumSet.of(AccessFlag.MW_BIND)));
    }

    @Test
    void initPortAndPkeyIndexAreChecked() {
        QueuePairTransitionAttributes.checkInit(1, 0, 1);
        QueuePairTransitionAttributes.checkInit(2, 0xFFFF, 2);
        assertRejected("port must be in 1..1, got 0", () -> QueuePairTransitionAttributes.checkInit(0, 0, 1));
        assertRejected("port must be in 1..1, got 2", () -> QueuePairTransitionAttributes.checkInit(2, 0, 1));
        assertRejected("pkey_index", () -> QueuePairTransitionAttributes.checkInit(1, 0x10000, 1));
        assertRejected("pkey_index", () -> QueuePairTransitionAttributes.checkInit(1, -1, 1));
    }

    @Test
    void roceNeedsAGidAndTheMtuFitsThePort() {
        PortAttributes roce = port(LinkLayer.ETHERNET, Mtu.MTU_1024);
        QueuePairTransitionAttributes.checkRemote(RemoteEndpoint.global(5, 0, GID, 1, Mtu.MTU_1024), 1, roce);
        assertRejected("needs a GID", () -> QueuePairTransitionAttributes.checkRemote(RemoteEndpoint.local(5, 0, 0, Mtu.MTU_1024), 1, roce));
        assertRejected("exceeds port 1's active MTU MTU_1024",
                () -> QueuePairTransitionAttributes.checkRemote(RemoteEndpoint.global(5, 0, GID, 1, Mtu.MTU_2048), 1, roce));
        // InfiniBand addresses by LID: no GID needed.
        QueuePairTransitionAttributes.checkRemote(RemoteEndpoint.local(5, 0, 3, Mtu.MTU_4096), 1, port(LinkLayer.INFINIBAND, Mtu.MTU_4096));
    }

    @Test
    void readAtomicDepthComesFromTheDeviceOrIsCheckedAgainstIt() {
        assertEquals(16, QueuePairTransitionAttributes.readAtomicDepth("max_rd_atomic", ReadyToSendOptions.FROM_DEVICE, "max_qp_init_rd_atom", 16));
        assertEquals(1, QueuePairTransitionAttributes.readAtomicDepth("max_rd_atomic", ReadyToSendOptions.FROM_DEVICE, "max_qp_init_rd_atom", 0));
        assertEquals(255, QueuePairTransitionAttributes.readAtomicDepth("max_rd_atomic", ReadyToSendOptions.FROM_DEVICE, "max_qp_init_rd_atom", 1000));
        assertEquals(4, QueuePairTransitionAttributes.readAtomicDepth("max_rd_atomic", 4, "max_qp_init_rd_atom", 16));
        assertRejected("max_rd_atomic must be at most 16 (device max_qp_init_rd_atom), got 17",
                () -> QueuePairTransitionAttributes.readAtomicDepth("max_rd_atomic", 17, "max_qp_init_rd_atom", 16));
    }

    @Test
    void attributesLandInTheirFields() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment init = arena.allocate(ibv_qp_attr.LAYOUT);
            QueuePairTransitionAttributes.writeInit(init, 2, 7);
            assertEquals(QueuePairState.INIT.value(), ibv_qp_attr.qp_state(init));
            assertEquals(2, ibv_qp_attr.port_num(init));
            assertEquals(7, ibv_qp_attr.pkey_index(init));

            RemoteEndpoint remote = RemoteEndpoint.global(0xABCDE, 0x12345, GID, 1, Mtu.MTU_1024);
            MemorySegment rc = arena.allocate(ibv_qp_attr.LAYOUT);
            QueuePairTransitionAttributes.writeRtr(rc, QueuePairType.RC, remote, 1, 8, 12);
            assertEquals(QueuePairState.RTR.value(), ibv_qp_attr.qp_state(rc));
            assertEquals(Mtu.MTU_1024.value(), ibv_qp_attr.path_mtu(rc));
            assertEquals(0xABCDE, ibv_qp_attr.dest_qp_num(rc));
            assertEquals(0x12345, ibv_qp_attr.rq_psn(rc));
            assertEquals(8, ibv_qp_attr.max_dest_rd_atomic(rc));
            assertEquals(12, ibv_qp_attr.min_rnr_timer(rc));
            assertEquals(1, ibv_ah_attr.is_global(ibv_qp_attr.ah_attr(rc)));
            assertEquals(1, ibv_ah_attr.port_num(ibv_qp_attr.ah_attr(rc)));

            MemorySegment uc = arena.allocate(ibv_qp_attr.LAYOUT);
            QueuePairTransitionAttributes.writeRtr(uc, QueuePairType.UC, remote, 1, 8, 12);
            assertEquals(0, ibv_qp_attr.max_dest_rd_atomic(uc), "RC-only attributes stay unset for UC");
            assertEquals(0, ibv_qp_attr.min_rnr_timer(uc));

            MemorySegment rts = arena.allocate(ibv_qp_attr.LAYOUT);
            QueuePairTransitionAttributes.writeRts(rts, QueuePairType.RC, ReadyToSendOptions.withPsn(99).withTimeout(20), 4);
            assertEquals(QueuePairState.RTS.value(), ibv_qp_attr.qp_state(rts));
            assertEquals(99, ibv_qp_attr.sq_psn(rts));
            assertEquals(20, ibv_qp_attr.timeout(rts));
            assertEquals(ReadyToSendOptions.DEFAULT_RETRY_COUNT, ibv_qp_attr.retry_cnt(rts));
            assertEquals(7, ibv_qp_attr.rnr_retry(rts));
            assertEquals(4, ibv_qp_attr.max_rd_atomic(rts));
            MemorySegment udRts = arena.allocate(ibv_qp_attr.LAYOUT);
            QueuePairTransitionAttributes.writeRts(udRts, QueuePairType.UD, ReadyToSendOptions.withPsn(5), 4);
            assertEquals(5, ibv_qp_attr.sq_psn(udRts));
            assertEquals(0, ibv_qp_attr.timeout(udRts));
            assertEquals(0, ibv_qp_attr.max_rd_atomic(udRts));
        }
    }
}
