package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_data_buf;
import dev.panamaverbs.ffm.ibv_mw_bind_info;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_sge;
import dev.panamaverbs.ffm.invoke.CallState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The extended post API through a fake {@code ibv_qp_ex} (fake_provider.c, compiled by gcc): each
 * {@code ibv_send_wr} becomes the {@code ibv_wr_*} calls that post it, each reaching its function
 * pointer with the arguments (and the {@code sge}/{@code data_buf}/{@code bind_info} arrays) read
 * back by C exactly as written here, with {@code wr_id} and {@code wr_flags} set when the
 * operation starts.
 */
class QpExTest {
    private static final int RC = VerbsConstants.IBV_QPT_RC;
    private static final long WR_UNION = ibv_send_wr.wr$OFFSET;

    private static FakeProvider fake;
    private static long qpx;
    private static QpEx.Functions fns;
    private static Arena arena;
    private static MemorySegment wr;
    private static MemorySegment sges;
    private static MemorySegment dataBufs;

    @BeforeAll
    static void provider() {
        fake = FakeProvider.standardAsProcessLibrary(); // ibv_qp_to_qp_ex is the fake's export
        qpx = fake.qpEx(fake.context(), true);
        fns = QpEx.resolve(qpx);
        arena = Arena.ofShared();
        wr = arena.allocate(ibv_send_wr.LAYOUT);
        sges = arena.allocate(ibv_sge.LAYOUT, 4);
        dataBufs = arena.allocate(ibv_data_buf.LAYOUT, 4);
    }

    @BeforeEach
    void reset() {
        fake.reset();
        wr.fill((byte) 0);
        sges.fill((byte) 0);
        ibv_send_wr.sg_list(wr, sges);
    }

    private static void request(int opcode, long wrId, int flags, int numSge) {
        ibv_send_wr.opcode(wr, opcode);
        ibv_send_wr.wr_id(wr, wrId);
        ibv_send_wr.send_flags(wr, flags);
        ibv_send_wr.num_sge(wr, numSge);
        for (int i = 0; i < numSge; i++) {
            MemorySegment sge = sges.asSlice(i * ibv_sge.SIZE, ibv_sge.SIZE);
            ibv_sge.addr(sge, 0x1000_0000L * (i + 1) + i);
            ibv_sge.length(sge, 64 * (i + 1));
            ibv_sge.lkey(sge, 0x100 + i);
        }
    }

    private static void rdma(long remoteAddress, int rkey) {
        wr.set(JAVA_LONG, WR_UNION + ibv_send_wr.wr.rdma.remote_addr$OFFSET, remoteAddress);
        wr.set(JAVA_INT, WR_UNION + ibv_send_wr.wr.rdma.rkey$OFFSET, rkey);
    }

    private static List<FakeProvider.Call> post(int qpType) {
        assertEquals(0, QpEx.post(fns, qpx, qpType, wr.address(), dataBufs.address()));
        return fake.log();
    }

    private static void assertArgs(FakeProvider.Call call, String op, long... args) {
        assertEquals(op, call.op());
        assertEquals(qpx, call.arg(0), op + ": the ibv_qp_ex");
        for (int i = 0; i < args.length; i++) {
            assertEquals(args[i], call.arg(i + 1), op + " argument " + (i + 1));
        }
    }

    @Test
    void startCompleteAndAbortReachTheirPointers() {
        QpEx.start(fns, qpx);
        assertEquals(0, QpEx.complete(fns, qpx));
        QpEx.abort(fns, qpx);
        assertEquals(List.of("wr_start", "wr_complete", "wr_abort"), fake.ops());
        fake.log().forEach(call -> assertEquals(qpx, call.arg(0)));
        fake.nextReturn(TestErrno.ENOMEM);
        assertEquals(TestErrno.ENOMEM, QpEx.complete(fns, qpx), "wr_complete's errno is returned as is");
    }

    @Test
    void aSendWithOneEntrySetsWrIdFlagsAndOneSge() {
        request(VerbsConstants.IBV_WR_SEND, 0x7777_0000_0001L, VerbsConstants.IBV_SEND_SIGNALED, 1);
        List<FakeProvider.Call> calls = post(RC);
        assertEquals(List.of("wr_send", "wr_set_sge"), calls.stream().map(FakeProvider.Call::op).toList());
        assertEquals(0x7777_0000_0001L, calls.get(0).wrId());
        assertEquals(VerbsConstants.IBV_SEND_SIGNALED, calls.get(0).wrFlags());
        assertArgs(calls.get(1), "wr_set_sge", 0x100, 0x1000_0000L, 64);
    }

    @Test
    void sendWithImmediateAndSeveralEntriesPassesTheSgeList() {
        request(VerbsConstants.IBV_WR_SEND_WITH_IMM, 2, 0, 3);
        ibv_send_wr.imm_data(wr, 0xCAFE_BABE);
        List<FakeProvider.Call> calls = post(RC);
        assertArgs(calls.get(0), "wr_send_imm", 0xCAFE_BABEL);
        // num_sge, the array, then C's reading of entry 0 (addr, length, lkey) and entry 2 (addr, lkey)
        assertArgs(calls.get(1), "wr_set_sge_list", 3, sges.address(), 0x1000_0000L, 64, 0x100, 0x3000_0002L, 0x102);
        assertEquals(2, calls.size());
    }

    @Test
    void sendWithInvalidateAndLocalInvalidatePassTheRkey() {
        request(VerbsConstants.IBV_WR_SEND_WITH_INV, 3, 0, 1);
        ibv_send_wr.invalidate_rkey(wr, 0x1234_5678);
        assertArgs(post(RC).get(0), "wr_send_inv", 0x1234_5678);
        fake.reset();
        request(VerbsConstants.IBV_WR_LOCAL_INV, 4, VerbsConstants.IBV_SEND_SIGNALED, 0);
        ibv_send_wr.invalidate_rkey(wr, 0x0BAD_F00D);
        List<FakeProvider.Call> calls = post(RC);
        assertEquals(1, calls.size(), "a local invalidate carries no data: " + calls);
        assertArgs(calls.get(0), "wr_local_inv", 0x0BAD_F00D);
        assertEquals(4, calls.get(0).wrId());
    }

    @Test
    void rdmaWriteInlineWithOneEntryCopiesFromItsAddress() {
        request(VerbsConstants.IBV_WR_RDMA_WRITE, 5, VerbsConstants.IBV_SEND_INLINE | VerbsConstants.IBV_SEND_SIGNALED, 1);
        rdma(0xFEDC_BA98_7654_3210L, 0x55);
        List<FakeProvider.Call> calls = post(RC);
        assertArgs(calls.get(0), "wr_rdma_write", 0x55, 0xFEDC_BA98_7654_3210L);
        assertEquals(VerbsConstants.IBV_SEND_INLINE | VerbsConstants.IBV_SEND_SIGNALED, calls.get(0).wrFlags());
        assertArgs(calls.get(1), "wr_set_inline_data", 0x1000_0000L, 64);
    }

    @Test
    void severalInlineEntriesAreGatheredIntoOneInlineData() {
        MemorySegment first = arena.allocate(3);
        MemorySegment second = arena.allocate(5);
        first.copyFrom(MemorySegment.ofArray(new byte[] {1, 2, 3}));
        second.copyFrom(MemorySegment.ofArray(new byte[] {4, 5, 6, 7, 8}));
        request(VerbsConstants.IBV_WR_RDMA_WRITE_WITH_IMM, 6, VerbsConstants.IBV_SEND_INLINE, 2);
        ibv_sge.addr(sges, first.address());
        ibv_sge.length(sges, 3);
        ibv_sge.addr(sges.asSlice(ibv_sge.SIZE), second.address());
        ibv_sge.length(sges.asSlice(ibv_sge.SIZE), 5);
        rdma(0x2000, 0x66);
        ibv_send_wr.imm_data(wr, 0x0102_0304);
        dataBufs.fill((byte) 0);
        List<FakeProvider.Call> calls = post(RC);
        assertArgs(calls.get(0), "wr_rdma_write_imm", 0x66, 0x2000, 0x0102_0304);
        assertArgs(calls.get(1), "wr_set_inline_data", dataBufs.address(), 8);
        assertEquals(2, calls.size(), "never ibv_wr_set_inline_data_list (rxe drops its bytes): " + calls);
        assertEquals(-1L, dataBufs.asSlice(0, 8).mismatch(MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5, 6, 7, 8})));
    }

    @Test
    void rdmaReadAndTheAtomicsTakeTheirUnionMembers() {
        request(VerbsConstants.IBV_WR_RDMA_READ, 7, 0, 1);
        rdma(0x3000, 0x77);
        assertArgs(post(RC).get(0), "wr_rdma_read", 0x77, 0x3000);

        fake.reset();
        request(VerbsConstants.IBV_WR_ATOMIC_CMP_AND_SWP, 8, 0, 1);
        wr.set(JAVA_LONG, WR_UNION + ibv_send_wr.wr.atomic.remote_addr$OFFSET, 0x4000);
        wr.set(JAVA_LONG, WR_UNION + ibv_send_wr.wr.atomic.compare_add$OFFSET, 0x1111_2222_3333_4444L);
        wr.set(JAVA_LONG, WR_UNION + ibv_send_wr.wr.atomic.swap$OFFSET, 0x5555_6666_7777_8888L);
        wr.set(JAVA_INT, WR_UNION + ibv_send_wr.wr.atomic.rkey$OFFSET, 0x88);
        List<FakeProvider.Call> calls = post(RC);
        assertArgs(calls.get(0), "wr_atomic_cmp_swp", 0x88, 0x4000, 0x1111_2222_3333_4444L, 0x5555_6666_7777_8888L);
        assertArgs(calls.get(1), "wr_set_sge", 0x100, 0x1000_0000L, 64);

        fake.reset();
        ibv_send_wr.opcode(wr, VerbsConstants.IBV_WR_ATOMIC_FETCH_AND_ADD);
        assertArgs(post(RC).get(0), "wr_atomic_fetch_add", 0x88, 0x4000, 0x1111_2222_3333_4444L);
    }

    @Test
    void bindMwPassesItsBindInfoInPlace() {
        request(VerbsConstants.IBV_WR_BIND_MW, 9, VerbsConstants.IBV_SEND_SIGNALED, 0);
        long bind = ibv_send_wr.bind_mw$OFFSET;
        long info = bind + ibv_send_wr.bind_mw.bind_info$OFFSET;
        wr.set(JAVA_LONG, bind + ibv_send_wr.bind_mw.mw$OFFSET, 0xAAAA_0000L);
        wr.set(JAVA_INT, bind + ibv_send_wr.bind_mw.rkey$OFFSET, 0x1234_5601);
        wr.set(JAVA_LONG, info + ibv_mw_bind_info.mr$OFFSET, 0xBBBB_0000L);
        wr.set(JAVA_LONG, info + ibv_mw_bind_info.addr$OFFSET, 0x5000);
        wr.set(JAVA_LONG, info + ibv_mw_bind_info.length$OFFSET, 4096);
        wr.set(JAVA_INT, info + ibv_mw_bind_info.mw_access_flags$OFFSET, VerbsConstants.IBV_ACCESS_REMOTE_WRITE);
        List<FakeProvider.Call> calls = post(RC);
        assertEquals(1, calls.size(), calls::toString);
        assertArgs(calls.get(0), "wr_bind_mw", 0xAAAA_0000L, 0x1234_5601, wr.address() + info, 0xBBBB_0000L, 0x5000,
                4096, VerbsConstants.IBV_ACCESS_REMOTE_WRITE);
        assertEquals(9, calls.get(0).wrId());
    }

    @Test
    void atomicWritePassesTheCpuAddressOfItsEightBytes() {
        MemorySegment value = arena.allocate(JAVA_LONG);
        value.set(JAVA_LONG, 0, 0x0123_4567_89AB_CDEFL);
        request(VerbsConstants.IBV_WR_ATOMIC_WRITE, 10, 0, 1);
        ibv_sge.addr(sges, value.address());
        ibv_sge.length(sges, 8);
        rdma(0x6000, 0x99);
        List<FakeProvider.Call> calls = post(RC);
        assertEquals(1, calls.size(), calls::toString);
        assertArgs(calls.get(0), "wr_atomic_write", 0x99, 0x6000, value.address(), 0x0123_4567_89AB_CDEFL);
    }

    @Test
    void udSetsTheAddressBeforeTheData() {
        request(VerbsConstants.IBV_WR_SEND, 11, 0, 1);
        wr.set(JAVA_LONG, WR_UNION + ibv_send_wr.wr.ud.ah$OFFSET, 0xABCD_0000L);
        wr.set(JAVA_INT, WR_UNION + ibv_send_wr.wr.ud.remote_qpn$OFFSET, 0x12_3456);
        wr.set(JAVA_INT, WR_UNION + ibv_send_wr.wr.ud.remote_qkey$OFFSET, 0x1111_1111);
        List<FakeProvider.Call> calls = post(VerbsConstants.IBV_QPT_UD);
        assertEquals(List.of("wr_send", "wr_set_ud_addr", "wr_set_sge"),
                calls.stream().map(FakeProvider.Call::op).toList());
        assertArgs(calls.get(1), "wr_set_ud_addr", 0xABCD_0000L, 0x12_3456, 0x1111_1111);
    }

    @Test
    void xrcSendSetsTheRemoteSrqNumber() {
        request(VerbsConstants.IBV_WR_SEND, 12, 0, 0);
        wr.set(JAVA_INT, ibv_send_wr.qp_type$OFFSET + ibv_send_wr.qp_type.xrc.remote_srqn$OFFSET, 0x42);
        List<FakeProvider.Call> calls = post(VerbsConstants.IBV_QPT_XRC_SEND);
        assertEquals(List.of("wr_send", "wr_set_xrc_srqn", "wr_set_sge_list"),
                calls.stream().map(FakeProvider.Call::op).toList());
        assertArgs(calls.get(1), "wr_set_xrc_srqn", 0x42);
        assertArgs(calls.get(2), "wr_set_sge_list", 0, sges.address());
    }

    @Test
    void anUntranslatedOpcodeCallsNothing() {
        request(VerbsConstants.IBV_WR_TSO, 13, 0, 1);
        assertEquals(22, QpEx.post(fns, qpx, RC, wr.address(), dataBufs.address()));
        assertEquals(List.of(), fake.ops());
        assertEquals("opcode", QpEx.missing(fns, RC, wr.address()));
    }

    @Test
    void missingNamesTheNullFunctionARequestWouldCall() {
        long bare = fake.qpEx(fake.context(), false);
        QpEx.Functions none = QpEx.resolve(bare);
        request(VerbsConstants.IBV_WR_RDMA_READ, 14, 0, 1);
        assertEquals("wr_rdma_read", QpEx.missing(none, RC, wr.address()));
        assertNull(QpEx.missing(fns, RC, wr.address()));
        assertNull(QpEx.missing(fns, VerbsConstants.IBV_QPT_UD, wr.address()));
        long calls = fake.calls();
        assertThrows(IllegalArgumentException.class, () -> QpEx.start(fns, 0));
        assertThrows(IllegalArgumentException.class, () -> QpEx.post(fns, qpx, RC, 0, dataBufs.address()));
        assertEquals(calls, fake.calls(), "NULL arguments are refused before any call");
    }

    @Test
    void toQpExIsTheExportedConversion() {
        long qp = fake.qpEx(fake.context(), true);
        MemorySegment errno = CallState.allocate(arena);
        assertEquals(qp, QpEx.toQpEx(errno, qp));
        assertEquals("ibv_qp_to_qp_ex", fake.lastOp());
        fake.nextReturn(1);
        assertEquals(0, QpEx.toQpEx(errno, qp), "a queue pair that is not extended");
    }
}
