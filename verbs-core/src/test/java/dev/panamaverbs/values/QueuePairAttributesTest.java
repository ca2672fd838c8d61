package dev.panamaverbs.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.ibv_global_route;
import dev.panamaverbs.ffm.ibv_qp_attr;
import dev.panamaverbs.ffm.ibv_qp_cap;
import dev.panamaverbs.ffm.ibv_qp_init_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** Decoding what ibv_query_qp fills in, from hand-filled structs; no device needed. */
class QueuePairAttributesTest {

    @Test
    void everyFieldIsReadAndUnsignedValuesAreWidened() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            MemorySegment init = arena.allocate(ibv_qp_init_attr.LAYOUT);
            ibv_qp_attr.qp_state(attr, QueuePairState.RTS.value());
            ibv_qp_attr.cur_qp_state(attr, QueuePairState.RTR.value());
            ibv_qp_attr.path_mtu(attr, Mtu.MTU_2048.value());
            ibv_qp_attr.path_mig_state(attr, MigrationState.ARMED.value());
            ibv_qp_attr.qkey(attr, 0x80000001);
            ibv_qp_attr.rq_psn(attr, 0x123);
            ibv_qp_attr.sq_psn(attr, 0x456);
            ibv_qp_attr.dest_qp_num(attr, 0xABCDEF);
            ibv_qp_attr.qp_access_flags(attr, AccessFlag.REMOTE_READ.bit() | AccessFlag.REMOTE_WRITE.bit());
            MemorySegment cap = ibv_qp_attr.cap(attr);
            ibv_qp_cap.max_send_wr(cap, 10);
            ibv_qp_cap.max_recv_wr(cap, 20);
            ibv_qp_cap.max_send_sge(cap, 3);
            ibv_qp_cap.max_recv_sge(cap, 4);
            ibv_qp_cap.max_inline_data(cap, 60);
            MemorySegment ah = ibv_qp_attr.ah_attr(attr);
            ibv_ah_attr.dlid(ah, (short) 0xFFFE);
            ibv_ah_attr.sl(ah, (byte) 2);
            ibv_ah_attr.is_global(ah, (byte) 1);
            ibv_ah_attr.port_num(ah, (byte) 1);
            Gid gid = Gid.parse("fe80::1");
            gid.write(ibv_global_route.dgid(ibv_ah_attr.grh(ah)));
            ibv_global_route.sgid_index(ibv_ah_attr.grh(ah), (byte) 200);
            ibv_global_route.hop_limit(ibv_ah_attr.grh(ah), (byte) 255);
            ibv_qp_attr.pkey_index(attr, (short) 0xFFFF);
            ibv_qp_attr.max_rd_atomic(attr, (byte) 16);
            ibv_qp_attr.max_dest_rd_atomic(attr, (byte) 128);
            ibv_qp_attr.min_rnr_timer(attr, (byte) 12);
            ibv_qp_attr.port_num(attr, (byte) 1);
            ibv_qp_attr.timeout(attr, (byte) 14);
            ibv_qp_attr.retry_cnt(attr, (byte) 7);
            ibv_qp_attr.rnr_retry(attr, (byte) 6);
            ibv_qp_init_attr.sq_sig_all(init, 1);

            QueuePairAttributes read = QueuePairAttributes.read(attr, init);
            assertEquals(QueuePairState.RTS, read.state());
            assertEquals(QueuePairState.RTR, read.currentState());
            assertEquals(Mtu.MTU_2048, read.pathMtu());
            assertEquals(MigrationState.ARMED, read.pathMigrationState());
            assertEquals(0x80000001L, read.qkey());
            assertEquals(0x123, read.rqPsn());
            assertEquals(0x456, read.sqPsn());
            assertEquals(0xABCDEF, read.destQpn());
            assertEquals(EnumSet.of(AccessFlag.REMOTE_READ, AccessFlag.REMOTE_WRITE), read.accessFlags());
            assertEquals(new QueuePairCapabilities(10, 20, 3, 4, 60), read.capabilities());
            assertEquals(0xFFFE, read.path().dlid());
            assertEquals(2, read.path().serviceLevel());
            assertTrue(read.path().isGlobal());
            assertEquals(gid, read.path().dgid());
            assertEquals(200, read.path().sgidIndex());
            assertEquals(255, read.path().hopLimit());
            assertEquals(0xFFFF, read.pkeyIndex());
            assertEquals(16, read.maxReadAtomic());
            assertEquals(128, read.maxDestReadAtomic());
            assertEquals(12, read.minRnrTimer());
            assertEquals(1, read.port());
            assertEquals(14, read.timeout());
            assertEquals(7, read.retryCount());
            assertEquals(6, read.rnrRetry());
            assertFalse(read.sqDraining());
            assertTrue(read.signalAll());
        }
    }

    @Test
    void unknownEnumValuesBecomeNullNotAnException() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            ibv_qp_attr.path_mtu(attr, 99);
            ibv_qp_attr.qp_state(attr, 42);
            QueuePairAttributes read = QueuePairAttributes.read(attr, arena.allocate(ibv_qp_init_attr.LAYOUT));
            assertNull(read.pathMtu());
            assertNull(read.state());
        }
    }
}
