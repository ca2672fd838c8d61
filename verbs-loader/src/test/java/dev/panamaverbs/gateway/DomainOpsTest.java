package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.verbs_context;
import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.ibv_alloc_dm_attr;
import dev.panamaverbs.ffm.ibv_dm;
import dev.panamaverbs.ffm.ibv_mr;
import dev.panamaverbs.ffm.ibv_parent_domain_init_attr;
import dev.panamaverbs.ffm.ibv_qp_rate_limit_attr;
import dev.panamaverbs.ffm.ibv_td_init_attr;
import dev.panamaverbs.ffm.invoke.CallState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Device memory, null memory regions, thread and parent domains and rate limits against the fake
 * provider: the attribute structs the generated layer fills arrive field by field where gcc put
 * them, every argument reaches the op, and a provider without the op answers EOPNOTSUPP without a
 * call.
 */
class DomainOpsTest extends ProcessFakeProviderTest {
    @Test
    void theGeneratedLayoutsMatchGcc() {
        assertEquals(fake.offsetInVerbsContext("alloc_dm"), verbs_context.alloc_dm$OFFSET);
        assertEquals(fake.offsetInVerbsContext("alloc_td"), verbs_context.alloc_td$OFFSET);
        assertEquals(fake.offsetInVerbsContext("alloc_parent_domain"), verbs_context.alloc_parent_domain$OFFSET);
        assertEquals(fake.offsetInVerbsContext("modify_qp_rate_limit"), verbs_context.modify_qp_rate_limit$OFFSET);
        assertLayouts(0,
                ibv_alloc_dm_attr.SIZE,
                ibv_alloc_dm_attr.log_align_req$OFFSET,
                ibv_alloc_dm_attr.comp_mask$OFFSET,
                ibv_parent_domain_init_attr.SIZE,
                ibv_parent_domain_init_attr.td$OFFSET,
                ibv_parent_domain_init_attr.comp_mask$OFFSET,
                ibv_parent_domain_init_attr.pd_context$OFFSET,
                ibv_qp_rate_limit_attr.SIZE,
                ibv_qp_rate_limit_attr.max_burst_sz$OFFSET,
                ibv_qp_rate_limit_attr.typical_pkt_sz$OFFSET,
                ibv_qp_rate_limit_attr.comp_mask$OFFSET,
                ibv_dm.SIZE,
                ibv_dm.memcpy_from_dm$OFFSET);
    }

    @Test
    void deviceMemoryIsAllocatedCopiedRegisteredAndFreed() {
        MemorySegment attr = arena.allocate(ibv_alloc_dm_attr.LAYOUT);
        ibv_alloc_dm_attr.length(attr, 0x1_0000_0040L);
        ibv_alloc_dm_attr.log_align_req(attr, 6);
        long dm = IbverbsCalls.ibv_alloc_dm(state, context, attr.address());
        // 0x1_0000_0040L is length, a size_t; 6 is log_align_req; 0 is comp_mask
        assertLastCall("alloc_dm", context, attr.address(), 0x1_0000_0040L, 6, 0);
        assertEquals(context, Memory.readLong(dm + ibv_dm.context$OFFSET));

        MemorySegment host = arena.allocate(16);
        for (int i = 0; i < 16; i++) {
            host.set(ValueLayout.JAVA_BYTE, i, (byte) (i + 1));
        }
        assertEquals(0, IbverbsCalls.ibv_memcpy_to_dm(dm, 8, host.address(), 16));
        assertLastCall("memcpy_to_dm", dm, 8, host.address(), 16);
        MemorySegment back = arena.allocate(16);
        assertEquals(0, IbverbsCalls.ibv_memcpy_from_dm(back.address(), dm, 8, 16));
        assertLastCall("memcpy_from_dm", back.address(), dm, 8, 16);
        assertEquals(-1L, back.mismatch(host), "the bytes came back");

        long pd = fake.pd(context);
        long mr = IbverbsCalls.ibv_reg_dm_mr(state, pd, dm, 32, 24, 0x20 | 0x1);
        assertLastCall("reg_dm_mr", pd, dm, 32, 24, 0x21);
        assertEquals(0x1234, Memory.readInt(mr + ibv_mr.lkey$OFFSET));

        fake.nextReturn(TestErrno.EINVAL);
        assertEquals(0, IbverbsCalls.ibv_reg_dm_mr(state, pd, dm, 32, 24, 0x21));
        assertEquals(TestErrno.EINVAL, CallState.errno(state));
        assertEquals(TestErrno.EINVAL, IbverbsCalls.ibv_memcpy_to_dm(dm, 0, host.address(), 1));
        fake.nextReturn(0);

        assertEquals(0, IbverbsCalls.ibv_free_dm(dm));
        assertLastCall("free_dm", dm);

        long calls = fake.calls();
        long older = fake.contextWithout(verbs_context.alloc_dm$OFFSET);
        assertEquals(0, IbverbsCalls.ibv_alloc_dm(state, older, attr.address()));
        assertEquals(OpsTable.EOPNOTSUPP, CallState.errno(state));
        assertEquals(0, IbverbsCalls.ibv_reg_dm_mr(state, fake.pd(fake.contextWithout(verbs_context.reg_dm_mr$OFFSET)), dm, 0, 1, 0x20));
        assertEquals(OpsTable.EOPNOTSUPP, CallState.errno(state));
        assertEquals(calls, fake.calls());
    }

    @Test
    void aNullMemoryRegionIsAllocated() {
        long pd = fake.pd(context);
        long mr = IbverbsCalls.ibv_alloc_null_mr(state, pd);
        assertLastCall("alloc_null_mr", pd);
        assertEquals(0x4321, Memory.readInt(mr + ibv_mr.lkey$OFFSET));
        fake.nextReturn(TestErrno.EINVAL);
        assertEquals(0, IbverbsCalls.ibv_alloc_null_mr(state, pd));
        assertEquals(TestErrno.EINVAL, CallState.errno(state));
        assertUnsupportedInErrno(state, () -> IbverbsCalls.ibv_alloc_null_mr(state, fake.pd(fake.contextWithout(verbs_context.alloc_null_mr$OFFSET))));
    }

    @Test
    void threadAndParentDomains() {
        MemorySegment tdAttr = arena.allocate(ibv_td_init_attr.LAYOUT);
        long td = IbverbsCalls.ibv_alloc_td(state, context, tdAttr.address());
        assertLastCall("alloc_td", context, tdAttr.address(), 0);

        long pd = fake.pd(context);
        MemorySegment attr = arena.allocate(ibv_parent_domain_init_attr.LAYOUT);
        ibv_parent_domain_init_attr.pd(attr, MemorySegment.ofAddress(pd));
        ibv_parent_domain_init_attr.td(attr, MemorySegment.ofAddress(td));
        long parent = IbverbsCalls.ibv_alloc_parent_domain(state, context, attr.address());
        assertLastCall("alloc_parent_domain", context, attr.address(), pd, td, 0, 0, 0, 0);
        assertEquals(context, Memory.readLong(parent + dev.panamaverbs.ffm.ibv_pd.context$OFFSET));

        assertEquals(0, IbverbsCalls.ibv_dealloc_td(td));
        assertLastCall("dealloc_td", td);
        assertProviderErrorPassesThrough(state, TestErrno.EIO, () -> IbverbsCalls.ibv_dealloc_td(td),
                () -> IbverbsCalls.ibv_alloc_td(state, context, tdAttr.address()));

        assertUnsupportedInErrno(state,
                () -> IbverbsCalls.ibv_alloc_td(state, fake.contextWithout(verbs_context.alloc_td$OFFSET), tdAttr.address()),
                () -> IbverbsCalls.ibv_alloc_parent_domain(state, fake.contextWithout(verbs_context.alloc_parent_domain$OFFSET), attr.address()));
    }

    @Test
    void rateLimitReachesTheProviderAsGccLaysItOut() {
        MemorySegment attr = arena.allocate(ibv_qp_rate_limit_attr.LAYOUT);
        ibv_qp_rate_limit_attr.rate_limit(attr, 0xFFFF_FFF0);
        ibv_qp_rate_limit_attr.max_burst_sz(attr, 70_000);
        ibv_qp_rate_limit_attr.typical_pkt_sz(attr, (short) 0xFFEE);
        long qp = fake.qp(context);
        assertEquals(0, IbverbsCalls.ibv_modify_qp_rate_limit(qp, attr.address()));
        // 0xFFFF_FFF0L is rate_limit, a uint32_t; 70_000 is max_burst_sz; 0xFFEE is typical_pkt_sz, a uint16_t; 0 is comp_mask
        assertLastCall("modify_qp_rate_limit", qp, attr.address(), 0xFFFF_FFF0L, 70_000, 0xFFEE, 0);
        fake.nextReturn(TestErrno.EINVAL);
        assertEquals(TestErrno.EINVAL, IbverbsCalls.ibv_modify_qp_rate_limit(qp, attr.address()));
        long calls = fake.calls();
        assertEquals(OpsTable.EOPNOTSUPP,
                IbverbsCalls.ibv_modify_qp_rate_limit(fake.qp(fake.contextWithout(verbs_context.modify_qp_rate_limit$OFFSET)), attr.address()));
        assertEquals(calls, fake.calls());
    }
}
