package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.verbs_context;
import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.ffm.ibv_qp_open_attr;
import dev.panamaverbs.ffm.ibv_srq_attr;
import dev.panamaverbs.ffm.ibv_srq_init_attr_ex;
import dev.panamaverbs.ffm.ibv_xrcd;
import dev.panamaverbs.ffm.ibv_xrcd_init_attr;
import dev.panamaverbs.ffm.invoke.CallState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * XRC domains, XRC shared receive queues, SRQ numbers and opened queue pairs against the fake
 * provider: the attribute structs arrive field by field where gcc put them; a provider without
 * the op answers EOPNOTSUPP without a call.
 */
class XrcOpsTest extends ProcessFakeProviderTest {
    @Test
    void theGeneratedLayoutsMatchGcc() {
        assertLayouts(13,
                ibv_xrcd_init_attr.SIZE,
                ibv_xrcd_init_attr.oflags$OFFSET,
                ibv_srq_init_attr_ex.SIZE,
                ibv_srq_init_attr_ex.comp_mask$OFFSET,
                ibv_srq_init_attr_ex.srq_type$OFFSET,
                ibv_srq_init_attr_ex.xrcd$OFFSET,
                ibv_srq_init_attr_ex.cq$OFFSET,
                ibv_qp_open_attr.SIZE,
                ibv_qp_open_attr.qp_num$OFFSET,
                ibv_qp_open_attr.xrcd$OFFSET,
                ibv_qp_open_attr.qp_type$OFFSET,
                verbs_context.open_xrcd$OFFSET,
                verbs_context.create_srq_ex$OFFSET,
                verbs_context.get_srq_num$OFFSET,
                verbs_context.open_qp$OFFSET);
    }

    @Test
    void anXrcDomainIsOpenedAndClosed() {
        MemorySegment attr = arena.allocate(ibv_xrcd_init_attr.LAYOUT);
        ibv_xrcd_init_attr.comp_mask(attr, VerbsConstants.IBV_XRCD_INIT_ATTR_FD | VerbsConstants.IBV_XRCD_INIT_ATTR_OFLAGS);
        ibv_xrcd_init_attr.fd(attr, -1);
        ibv_xrcd_init_attr.oflags(attr, 0100);
        long xrcd = IbverbsCalls.ibv_open_xrcd(state, context, attr.address());
        assertLastCall("open_xrcd", context, attr.address(), 3, -1, 0100);
        assertEquals(context, Memory.readLong(xrcd + ibv_xrcd.context$OFFSET));
        assertEquals(0, IbverbsCalls.ibv_close_xrcd(xrcd));
        assertLastCall("close_xrcd", xrcd);
        assertProviderErrorPassesThrough(state, TestErrno.EIO, () -> IbverbsCalls.ibv_close_xrcd(xrcd),
                () -> IbverbsCalls.ibv_open_xrcd(state, context, attr.address()));
        assertUnsupportedInErrno(state, () -> IbverbsCalls.ibv_open_xrcd(state, fake.contextWithout(verbs_context.open_xrcd$OFFSET), attr.address()));
    }

    @Test
    void anXrcSharedReceiveQueueReachesCreateSrqExAndHasANumber() {
        long pd = fake.pd(context);
        long xrcd = 0x1000;
        long cq = fake.cq(context);
        MemorySegment attr = arena.allocate(ibv_srq_init_attr_ex.LAYOUT);
        int mask = VerbsConstants.IBV_SRQ_INIT_ATTR_TYPE | VerbsConstants.IBV_SRQ_INIT_ATTR_PD
                | VerbsConstants.IBV_SRQ_INIT_ATTR_XRCD | VerbsConstants.IBV_SRQ_INIT_ATTR_CQ;
        ibv_srq_init_attr_ex.comp_mask(attr, mask);
        ibv_srq_init_attr_ex.srq_type(attr, VerbsConstants.IBV_SRQT_XRC);
        ibv_srq_init_attr_ex.pd(attr, MemorySegment.ofAddress(pd));
        ibv_srq_init_attr_ex.xrcd(attr, MemorySegment.ofAddress(xrcd));
        ibv_srq_init_attr_ex.cq(attr, MemorySegment.ofAddress(cq));
        ibv_srq_attr.max_wr(ibv_srq_init_attr_ex.attr(attr), 100);
        ibv_srq_attr.max_sge(ibv_srq_init_attr_ex.attr(attr), 3);
        long srq = ExtendedOps.createSrqEx(state, context, attr.address());
        assertLastCall("create_srq_ex", context, attr.address(), mask, VerbsConstants.IBV_SRQT_XRC, pd, xrcd, cq, (100L << 32) | 3);
        assertEquals(101, ibv_srq_attr.max_wr(ibv_srq_init_attr_ex.attr(attr)), "the granted size comes back");

        MemorySegment number = arena.allocate(ValueLayout.JAVA_INT);
        assertEquals(0, IbverbsCalls.ibv_get_srq_num(srq, number.address()));
        assertLastCall("get_srq_num", srq, number.address());
        assertEquals(0xABCDE, number.get(ValueLayout.JAVA_INT, 0));

        long calls = fake.calls();
        long older = fake.contextWithout(verbs_context.create_srq_ex$OFFSET);
        assertEquals(0, ExtendedOps.createSrqEx(state, older, attr.address()));
        assertEquals(OpsTable.EOPNOTSUPP, CallState.errno(state));
        assertEquals(OpsTable.EOPNOTSUPP, IbverbsCalls.ibv_get_srq_num(fake.srq(fake.contextWithout(verbs_context.get_srq_num$OFFSET)), number.address()));
        assertEquals(calls, fake.calls());
    }

    @Test
    void aQueuePairIsOpenedByNumberInItsXrcDomain() {
        MemorySegment attr = arena.allocate(ibv_qp_open_attr.LAYOUT);
        int mask = VerbsConstants.IBV_QP_OPEN_ATTR_NUM | VerbsConstants.IBV_QP_OPEN_ATTR_XRCD
                | VerbsConstants.IBV_QP_OPEN_ATTR_TYPE;
        ibv_qp_open_attr.comp_mask(attr, mask);
        ibv_qp_open_attr.qp_num(attr, 0xFFFFFE);
        ibv_qp_open_attr.xrcd(attr, MemorySegment.ofAddress(0x2000));
        ibv_qp_open_attr.qp_type(attr, VerbsConstants.IBV_QPT_XRC_RECV);
        long qp = IbverbsCalls.ibv_open_qp(state, context, attr.address());
        assertLastCall("open_qp", context, attr.address(), mask, 0xFFFFFE, 0x2000, VerbsConstants.IBV_QPT_XRC_RECV);
        assertEquals(0xFFFFFE, Memory.readInt(qp + ibv_qp.qp_num$OFFSET));
        assertUnsupportedInErrno(state, () -> IbverbsCalls.ibv_open_qp(state, fake.contextWithout(verbs_context.open_qp$OFFSET), attr.address()));
    }
}
