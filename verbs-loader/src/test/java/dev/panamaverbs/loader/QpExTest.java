package dev.panamaverbs.loader;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_qp_ex;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The ibv_wr_* calls through a fake ibv_qp_ex whose pointers record their arguments (own JVM). */
class QpExTest {
    private static FakeProvider fake;
    private static long qpx;
    private static QpEx.Functions fns;

    @BeforeAll
    static void useTheFakeLibrary() {
        System.setProperty(LibraryProbe.LIBRARY_PROPERTY, FakeProvider.standardLibrary().toString());
        fake = FakeProvider.standard();
        qpx = fake.qpEx(fake.context(), true);
        fns = QpEx.resolve(qpx);
    }

    @BeforeEach
    void reset() {
        fake.reset();
    }

    @Test
    void aBatchDeliversEveryArgument() {
        QpEx.wrStart(fns, qpx);
        assertEquals("wr_start", fake.lastOp());
        assertEquals(qpx, fake.arg(0));

        QpEx.setWrId(qpx, 0x1234_5678_9abcL);
        QpEx.setWrFlags(qpx, VerbsConstants.IBV_SEND_SIGNALED);
        QpEx.wrSend(fns, qpx);
        assertEquals("wr_send", fake.lastOp());
        assertEquals(0x1234_5678_9abcL, fake.arg(1), "wr_id written where the provider reads it");
        assertEquals(VerbsConstants.IBV_SEND_SIGNALED, fake.arg(2));

        QpEx.wrSetSge(fns, qpx, 0xdead, 0x7f00_0000_1000L, 0x8000_0000);
        assertEquals("wr_set_sge", fake.lastOp());
        assertEquals(0xdead, fake.arg(1));
        assertEquals(0x7f00_0000_1000L, fake.arg(2));
        assertEquals(0x8000_0000L, fake.arg(3), "uint32_t length arrives unsigned");

        assertEquals(0, QpEx.wrComplete(fns, qpx));
        assertEquals("wr_complete", fake.lastOp());
        fake.nextReturn(Errno.ENOMEM);
        assertEquals(Errno.ENOMEM, QpEx.wrComplete(fns, qpx));
        QpEx.wrAbort(fns, qpx);
        assertEquals("wr_abort", fake.lastOp());
    }

    @Test
    void rdmaAndAtomicOpcodes() {
        QpEx.wrRdmaWrite(fns, qpx, 7, 0x1000);
        assertEquals("wr_rdma_write", fake.lastOp());
        assertEquals(7, fake.arg(1));
        assertEquals(0x1000, fake.arg(2));

        QpEx.wrRdmaRead(fns, qpx, 8, 0x2000);
        assertEquals("wr_rdma_read", fake.lastOp());
        assertEquals(0x2000, fake.arg(2));

        QpEx.wrRdmaWriteImm(fns, qpx, 9, 0x3000, 0x0a0b0c0d);
        assertEquals("wr_rdma_write_imm", fake.lastOp());
        assertEquals(0x0a0b0c0d, fake.arg(3));

        QpEx.wrAtomicFetchAdd(fns, qpx, 10, 0x4000, -1L);
        assertEquals("wr_atomic_fetch_add", fake.lastOp());
        assertEquals(-1L, fake.arg(3));

        QpEx.wrAtomicCmpSwp(fns, qpx, 11, 0x5000, 42, 43);
        assertEquals("wr_atomic_cmp_swp", fake.lastOp());
        assertEquals(11, fake.arg(1));
        assertEquals(0x5000, fake.arg(2));
        assertEquals(42, fake.arg(3));
        assertEquals(43, fake.arg(4));

        QpEx.wrSendImm(fns, qpx, 99);
        assertEquals("wr_send_imm", fake.lastOp());
        assertEquals(99, fake.arg(1));
        QpEx.wrSendInv(fns, qpx, 100);
        assertEquals("wr_send_inv", fake.lastOp());
        QpEx.wrLocalInv(fns, qpx, 101);
        assertEquals("wr_local_inv", fake.lastOp());
        assertEquals(101, fake.arg(1));
    }

    @Test
    void dataAndAddressing() {
        QpEx.wrSetSgeList(fns, qpx, 3, 0x6000);
        assertEquals("wr_set_sge_list", fake.lastOp());
        assertEquals(3, fake.arg(1));
        assertEquals(0x6000, fake.arg(2));

        QpEx.wrSetInlineData(fns, qpx, 0x7000, 16);
        assertEquals("wr_set_inline_data", fake.lastOp());
        assertEquals(0x7000, fake.arg(1));
        assertEquals(16, fake.arg(2));

        QpEx.wrSetUdAddr(fns, qpx, 0x8000, 0x11, 0x22);
        assertEquals("wr_set_ud_addr", fake.lastOp());
        assertEquals(0x8000, fake.arg(1));
        assertEquals(0x11, fake.arg(2));
        assertEquals(0x22, fake.arg(3));
    }

    @Test
    void missingPointersAreUnsupported() {
        long bare = fake.qpEx(fake.context(), false);
        long calls = fake.calls();
        assertEquals("ibv_wr_start", assertThrows(VerbsUnsupportedException.class, () -> QpEx.resolve(bare)).verb());
        copyPointer(bare, ibv_qp_ex.wr_start$OFFSET);
        assertEquals("ibv_wr_complete", assertThrows(VerbsUnsupportedException.class, () -> QpEx.resolve(bare)).verb());
        copyPointer(bare, ibv_qp_ex.wr_complete$OFFSET);
        assertEquals("ibv_wr_abort", assertThrows(VerbsUnsupportedException.class, () -> QpEx.resolve(bare)).verb());
        copyPointer(bare, ibv_qp_ex.wr_abort$OFFSET);
        QpEx.Functions bareFns = QpEx.resolve(bare);
        VerbsUnsupportedException thrown = assertThrows(VerbsUnsupportedException.class, () -> QpEx.wrSend(bareFns, bare));
        assertEquals("ibv_wr_send", thrown.verb());
        assertThrows(VerbsUnsupportedException.class, () -> QpEx.wrAtomicWrite(bareFns, bare, 1, 2, 3));
        assertThrows(VerbsUnsupportedException.class, () -> QpEx.wrBindMw(bareFns, bare, 1, 2, 3));
        assertThrows(IllegalArgumentException.class, () -> QpEx.wrSend(fns, 0));
        assertThrows(IllegalArgumentException.class, () -> QpEx.wrSetSgeList(fns, qpx, 2, 0));
        assertEquals(calls, fake.calls());
    }

    /** Copies the working QP's pointer at {@code offset} into {@code target}. */
    private static void copyPointer(long target, long offset) {
        Memory.writeLong(target + offset, Memory.readLong(qpx + offset));
    }

    @Test
    void fromQpUsesTheExport() {
        assertEquals(qpx, QpEx.fromQp(qpx));
        assertEquals("ibv_qp_to_qp_ex", fake.lastOp());
        fake.nextReturn(1);
        assertThrows(VerbsUnsupportedException.class, () -> QpEx.fromQp(qpx));
    }

    @Test
    void resolvedFunctionsDeliverEveryArgument() {
        QpEx.Functions fns = QpEx.resolve(qpx);
        QpEx.wrStart(fns, qpx);
        assertEquals("wr_start", fake.lastOp());
        assertEquals(qpx, fake.arg(0));
        QpEx.setWrId(qpx, 77);
        QpEx.wrSend(fns, qpx);
        assertEquals("wr_send", fake.lastOp());
        assertEquals(77, fake.arg(1));
        QpEx.wrSetSge(fns, qpx, 0xdead, 0x7f00_0000_1000L, 0x8000_0000);
        assertEquals("wr_set_sge", fake.lastOp());
        assertEquals(0x8000_0000L, fake.arg(3), "uint32_t length arrives unsigned");
        QpEx.wrRdmaWrite(fns, qpx, 7, 0x1000);
        assertEquals("wr_rdma_write", fake.lastOp());
        assertEquals(0x1000, fake.arg(2));
        QpEx.wrRdmaRead(fns, qpx, 8, 0x2000);
        assertEquals("wr_rdma_read", fake.lastOp());
        QpEx.wrRdmaWriteImm(fns, qpx, 9, 0x3000, 0x0a0b0c0d);
        assertEquals(0x0a0b0c0d, fake.arg(3));
        QpEx.wrAtomicFetchAdd(fns, qpx, 10, 0x4000, -1L);
        assertEquals(-1L, fake.arg(3));
        QpEx.wrAtomicCmpSwp(fns, qpx, 11, 0x5000, 42, 43);
        assertEquals(43, fake.arg(4));
        QpEx.wrSendImm(fns, qpx, 99);
        assertEquals("wr_send_imm", fake.lastOp());
        QpEx.wrSendInv(fns, qpx, 100);
        assertEquals("wr_send_inv", fake.lastOp());
        QpEx.wrLocalInv(fns, qpx, 101);
        assertEquals(101, fake.arg(1));
        QpEx.wrSetSgeList(fns, qpx, 3, 0x6000);
        assertEquals("wr_set_sge_list", fake.lastOp());
        QpEx.wrSetInlineData(fns, qpx, 0x7000, 16);
        assertEquals("wr_set_inline_data", fake.lastOp());
        QpEx.wrSetUdAddr(fns, qpx, 0x8000, 0x11, 0x22);
        assertEquals(0x22, fake.arg(3));
        fake.nextReturn(Errno.ENOMEM);
        assertEquals(Errno.ENOMEM, QpEx.wrComplete(fns, qpx));
        QpEx.wrAbort(fns, qpx);
        assertEquals("wr_abort", fake.lastOp());
    }

    @Test
    void resolvingRejectsABareQpAndMissingOpcodesFailWithoutCalling() {
        long bare = fake.qpEx(fake.context(), false);
        assertEquals("ibv_wr_start", assertThrows(VerbsUnsupportedException.class, () -> QpEx.resolve(bare)).verb());
        assertThrows(IllegalArgumentException.class, () -> QpEx.resolve(0));

        QpEx.Functions fns = QpEx.resolve(qpx);
        long calls = fake.calls();
        // The fake leaves these NULL, like a provider without the opcode.
        assertEquals("ibv_wr_atomic_write",
                assertThrows(VerbsUnsupportedException.class, () -> QpEx.wrAtomicWrite(fns, qpx, 1, 2, 3)).verb());
        assertThrows(VerbsUnsupportedException.class, () -> QpEx.wrBindMw(fns, qpx, 1, 2, 3));
        assertThrows(VerbsUnsupportedException.class, () -> QpEx.wrSetXrcSrqn(fns, qpx, 1));
        assertThrows(VerbsUnsupportedException.class, () -> QpEx.wrSetInlineDataList(fns, qpx, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> QpEx.wrSend(fns, 0));
        assertThrows(IllegalArgumentException.class, () -> QpEx.wrSetSgeList(fns, qpx, 2, 0));
        assertEquals(calls, fake.calls());
    }
}
