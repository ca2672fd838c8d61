package dev.panamaverbs;


import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.ReadyToReceiveOptions;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.ibv_global_route;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class RemoteEndpointTest {
    private static final Rejections.Verb MODIFY_QP = new Rejections.Verb("ibv_modify_qp: ");
    private static final Gid GID = Gid.parse("::ffff:10.0.2.15");


    @Test
    void everyFieldIsCheckedAgainstItsCWidth() {
        MODIFY_QP.assertRejected("dest_qp_num", () -> RemoteEndpoint.global(1 << 24, 0, GID, 1, Mtu.MTU_1024));
        MODIFY_QP.assertRejected("dest_qp_num", () -> RemoteEndpoint.global(-1, 0, GID, 1, Mtu.MTU_1024));
        MODIFY_QP.assertRejected("rq_psn", () -> RemoteEndpoint.global(17, 1 << 24, GID, 1, Mtu.MTU_1024));
        MODIFY_QP.assertRejected("ah_attr.dlid", () -> RemoteEndpoint.local(17, 0, 0x10000, Mtu.MTU_1024));
        MODIFY_QP.assertRejected("ah_attr.grh.sgid_index", () -> RemoteEndpoint.global(17, 0, GID, 256, Mtu.MTU_1024));
        RemoteEndpoint ok = RemoteEndpoint.global(17, 0, GID, 1, Mtu.MTU_1024);
        MODIFY_QP.assertRejected("ah_attr.grh.hop_limit", () -> ok.withHopLimit(0));
        MODIFY_QP.assertRejected("ah_attr.grh.hop_limit", () -> ok.withHopLimit(256));
        MODIFY_QP.assertRejected("ah_attr.grh.traffic_class", () -> ok.withTrafficClass(256));
        MODIFY_QP.assertRejected("ah_attr.sl", () -> ok.withServiceLevel(16));
        MODIFY_QP.assertRejected("ah_attr.grh.flow_label", () -> ok.withFlowLabel(1 << 20));
        MODIFY_QP.assertRejected("ah_attr.port_num", () -> ok.withPort(256));
        assertThrows(NullPointerException.class, () -> RemoteEndpoint.global(17, 0, null, 1, Mtu.MTU_1024));
        assertThrows(NullPointerException.class, () -> RemoteEndpoint.local(17, 0, 1, null));
    }

    @Test
    void limitsThemselvesAreAccepted() {
        RemoteEndpoint max = RemoteEndpoint.global(0xFF_FFFF, 0xFF_FFFF, GID, 255, Mtu.MTU_4096)
                .withHopLimit(255).withTrafficClass(255).withServiceLevel(15).withFlowLabel(0xF_FFFF).withPort(255);
        assertEquals(0xFF_FFFF, max.qpn());
        assertEquals(255, max.hopLimit());
        // Without a GRH the hop limit is unused, so 0 is fine.
        assertEquals(0, RemoteEndpoint.local(1, 2, 3, Mtu.MTU_256).hopLimit());
    }

    @Test
    void globalEndpointWritesAGrhIntoTheAddressVector() {
        RemoteEndpoint remote = RemoteEndpoint.global(0x123, 0x456, GID, 1, Mtu.MTU_1024)
                .withHopLimit(5).withTrafficClass(0x20).withServiceLevel(3).withFlowLabel(0xABCDE);
        assertTrue(remote.isGlobal());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ah = arena.allocate(ibv_ah_attr.LAYOUT);
            remote.writeAddressVector(ah, 1);
            assertEquals(1, ibv_ah_attr.is_global(ah));
            assertEquals(1, ibv_ah_attr.port_num(ah));
            assertEquals(3, ibv_ah_attr.sl(ah));
            assertEquals(0, ibv_ah_attr.dlid(ah));
            MemorySegment grh = ibv_ah_attr.grh(ah);
            assertEquals(GID, Gid.read(ibv_global_route.dgid(grh)));
            assertEquals(1, ibv_global_route.sgid_index(grh));
            assertEquals(5, ibv_global_route.hop_limit(grh));
            assertEquals(0x20, ibv_global_route.traffic_class(grh));
            assertEquals(0xABCDE, ibv_global_route.flow_label(grh));
        }
    }

    @Test
    void explicitPortWinsOverTheQueuePairsPort() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ah = arena.allocate(ibv_ah_attr.LAYOUT);
            RemoteEndpoint.global(1, 0, GID, 1, Mtu.MTU_1024).withPort(2).writeAddressVector(ah, 1);
            assertEquals(2, ibv_ah_attr.port_num(ah));
        }
    }

    @Test
    void localEndpointHasNoGrh() {
        RemoteEndpoint remote = RemoteEndpoint.local(9, 0, 0x1234, Mtu.MTU_2048);
        assertFalse(remote.isGlobal());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ah = arena.allocate(ibv_ah_attr.LAYOUT);
            remote.writeAddressVector(ah, 1);
            assertEquals(0, ibv_ah_attr.is_global(ah));
            assertEquals(0x1234, Short.toUnsignedInt(ibv_ah_attr.dlid(ah)));
            assertTrue(Gid.read(ibv_global_route.dgid(ibv_ah_attr.grh(ah))).isZero());
        }
    }

    @Test
    void transitionOptionsCheckTheirFieldsAndHaveTheDocumentedDefaults() {
        ReadyToSendOptions defaults = ReadyToSendOptions.defaults();
        assertEquals(new ReadyToSendOptions(0, 14, 6, 7, ReadyToSendOptions.FROM_DEVICE), defaults);
        assertFalse(defaults.retriesForEverOn(ReadyToSendOptions.RXE_VENDOR_ID), "the default fails a dead peer on rxe too");
        assertTrue(defaults.withRetryCount(7).retriesForEverOn(ReadyToSendOptions.RXE_VENDOR_ID));
        assertFalse(defaults.withRetryCount(7).retriesForEverOn(0x02c9), "7 is bounded on other providers (Mellanox OUI here)");
        assertEquals(100, ReadyToSendOptions.withPsn(100).sqPsn());
        MODIFY_QP.assertRejected("sq_psn", () -> ReadyToSendOptions.withPsn(1 << 24));
        MODIFY_QP.assertRejected("timeout", () -> defaults.withTimeout(32));
        MODIFY_QP.assertRejected("retry_cnt", () -> defaults.withRetryCount(8));
        MODIFY_QP.assertRejected("rnr_retry", () -> defaults.withRnrRetry(-1));
        MODIFY_QP.assertRejected("max_rd_atomic", () -> defaults.withMaxReadAtomic(-2));
        MODIFY_QP.assertRejected("max_rd_atomic", () -> defaults.withMaxReadAtomic(256));
        assertEquals(new ReadyToReceiveOptions(ReadyToReceiveOptions.FROM_DEVICE, 12), ReadyToReceiveOptions.defaults());
        MODIFY_QP.assertRejected("min_rnr_timer", () -> new ReadyToReceiveOptions(1, 32));
        MODIFY_QP.assertRejected("max_dest_rd_atomic", () -> new ReadyToReceiveOptions(-2, 12));
    }
}
