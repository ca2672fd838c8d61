package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.verbs_context;
import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_rwq_ind_table;
import dev.panamaverbs.ffm.ibv_rwq_ind_table_init_attr;
import dev.panamaverbs.ffm.ibv_wq;
import dev.panamaverbs.ffm.ibv_wq_attr;
import dev.panamaverbs.ffm.ibv_wq_init_attr;
import dev.panamaverbs.ffm.invoke.CallState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Receive work queues and indirection tables against the fake provider: attribute structs
 * field by field where gcc put them, ibv_create_wq's own initialisation of the new WQ, the WQ's
 * post_recv, and EOPNOTSUPP without a call where the provider lacks the op.
 */
class WqOpsTest extends ProcessFakeProviderTest {
    @Test
    void theGeneratedLayoutsMatchGcc() {
        assertLayouts(30,
                ibv_wq_init_attr.SIZE,
                ibv_wq_init_attr.max_sge$OFFSET,
                ibv_wq_init_attr.cq$OFFSET,
                ibv_wq_init_attr.create_flags$OFFSET,
                ibv_wq_attr.SIZE,
                ibv_wq_attr.flags_mask$OFFSET,
                ibv_rwq_ind_table_init_attr.SIZE,
                ibv_rwq_ind_table_init_attr.ind_tbl$OFFSET,
                ibv_rwq_ind_table_init_attr.comp_mask$OFFSET,
                ibv_wq.SIZE,
                ibv_wq.post_recv$OFFSET,
                ibv_wq.mutex$OFFSET,
                ibv_wq.cond$OFFSET,
                ibv_wq.events_completed$OFFSET,
                verbs_context.create_wq$OFFSET,
                verbs_context.create_rwq_ind_table$OFFSET);
    }

    private long createWq(MemorySegment state, long pd, long cq) {
        MemorySegment attr = arena.allocate(ibv_wq_init_attr.LAYOUT);
        ibv_wq_init_attr.wq_context(attr, MemorySegment.ofAddress(0xC0FFEE));
        ibv_wq_init_attr.wq_type(attr, VerbsConstants.IBV_WQT_RQ);
        ibv_wq_init_attr.max_wr(attr, 256);
        ibv_wq_init_attr.max_sge(attr, 4);
        ibv_wq_init_attr.pd(attr, MemorySegment.ofAddress(pd));
        ibv_wq_init_attr.cq(attr, MemorySegment.ofAddress(cq));
        long wq = ExtendedOps.createWq(state, context, attr.address());
        assertLastCall("create_wq", context, attr.address(), VerbsConstants.IBV_WQT_RQ, 256, 4, pd, cq, 0);
        return wq;
    }

    @Test
    void aWorkQueueIsCreatedInitialisedModifiedPostedToAndDestroyed() {
        long pd = fake.pd(context);
        long cq = fake.cq(context);
        long wq = createWq(state, pd, cq);
        MemorySegment created = MemorySegment.ofAddress(wq).reinterpret(ibv_wq.SIZE);
        assertEquals(0xC0FFEE, ibv_wq.wq_context(created).address(), "wq_context from the attributes");
        assertEquals(0, ibv_wq.events_completed(created));
        MemorySegment lock = created.asSlice(ibv_wq.mutex$OFFSET, ibv_wq.cond$OFFSET - ibv_wq.mutex$OFFSET);
        assertEquals(-1L, lock.mismatch(MemorySegment.ofArray(new byte[(int) lock.byteSize()])),
                "pthread_mutex_init with no attributes leaves glibc's all-zero mutex");
        assertEquals(0x77, ibv_wq.wq_num(created));

        MemorySegment attr = arena.allocate(ibv_wq_attr.LAYOUT);
        ibv_wq_attr.attr_mask(attr, VerbsConstants.IBV_WQ_ATTR_STATE | VerbsConstants.IBV_WQ_ATTR_CURR_STATE);
        ibv_wq_attr.wq_state(attr, VerbsConstants.IBV_WQS_RDY);
        ibv_wq_attr.curr_wq_state(attr, VerbsConstants.IBV_WQS_RESET);
        assertEquals(0, IbverbsCalls.ibv_modify_wq(wq, attr.address()));
        assertLastCall("modify_wq", wq, attr.address(), 3, VerbsConstants.IBV_WQS_RDY, VerbsConstants.IBV_WQS_RESET, 0);

        MemorySegment wr = arena.allocate(ibv_recv_wr.LAYOUT);
        ibv_recv_wr.wr_id(wr, 0x1234_5678_9ABCL);
        ibv_recv_wr.num_sge(wr, 0);
        MemorySegment bad = arena.allocate(ValueLayout.ADDRESS);
        assertEquals(0, IbverbsCalls.ibv_post_wq_recv(wq, wr.address(), bad.address()));
        assertLastCall("post_wq_recv", wq, wr.address(), bad.address(), 0x1234_5678_9ABCL);
        fake.nextReturn(TestErrno.ENOMEM);
        assertEquals(TestErrno.ENOMEM, IbverbsCalls.ibv_post_wq_recv(wq, wr.address(), bad.address()));
        assertEquals(wr.address(), bad.get(ValueLayout.JAVA_LONG, 0), "bad_recv_wr points at the refused request");
        fake.nextReturn(0);

        assertEquals(0, IbverbsCalls.ibv_destroy_wq(wq));
        assertLastCall("destroy_wq", wq);

        long calls = fake.calls();
        MemorySegment initAttr = arena.allocate(ibv_wq_init_attr.LAYOUT);
        assertEquals(0, ExtendedOps.createWq(state, fake.contextWithout(verbs_context.create_wq$OFFSET), initAttr.address()));
        assertEquals(OpsTable.EOPNOTSUPP, CallState.errno(state));
        assertEquals(calls, fake.calls());
    }

    @Test
    void anIndirectionTableListsItsWorkQueues() {
        long first = createWq(state, fake.pd(context), fake.cq(context));
        MemorySegment table = arena.allocate(ValueLayout.ADDRESS, 4);
        for (int i = 0; i < 4; i++) {
            table.setAtIndex(ValueLayout.JAVA_LONG, i, first + i);
        }
        MemorySegment attr = arena.allocate(ibv_rwq_ind_table_init_attr.LAYOUT);
        ibv_rwq_ind_table_init_attr.log_ind_tbl_size(attr, 2);
        ibv_rwq_ind_table_init_attr.ind_tbl(attr, table);
        long created = IbverbsCalls.ibv_create_rwq_ind_table(state, context, attr.address());
        assertLastCall("create_rwq_ind_table", context, attr.address(), 2, table.address(), 0, first, first + 3);
        assertEquals(0x55, Memory.readInt(created + ibv_rwq_ind_table.ind_tbl_num$OFFSET));
        assertEquals(0, IbverbsCalls.ibv_destroy_rwq_ind_table(created));
        assertLastCall("destroy_rwq_ind_table", created);
        fake.nextReturn(TestErrno.EINVAL);
        assertEquals(0, IbverbsCalls.ibv_create_rwq_ind_table(state, context, attr.address()));
        assertEquals(TestErrno.EINVAL, CallState.errno(state));
        fake.nextReturn(0);
        assertUnsupportedInErrno(state, () -> IbverbsCalls.ibv_create_rwq_ind_table(state, fake.contextWithout(verbs_context.create_rwq_ind_table$OFFSET), attr.address()));
    }
}
