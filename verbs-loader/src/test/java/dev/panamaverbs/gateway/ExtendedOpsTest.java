package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_cq_init_attr_ex;
import dev.panamaverbs.ffm.ibv_device_attr;
import dev.panamaverbs.ffm.ibv_device_attr_ex;
import dev.panamaverbs.ffm.ibv_port_attr;
import dev.panamaverbs.ffm.ibv_qp_init_attr_ex;
import dev.panamaverbs.ffm.ibv_query_device_ex_input;
import dev.panamaverbs.ffm.verbs_context;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verbs_context ops and their guards, against fake provider contexts. The process-wide
 * library is the fake too (own JVM), so the header's fallbacks to exported functions land in
 * its recorders.
 */
class ExtendedOpsTest extends ProcessFakeProviderTest {
    private static long fullSize;

    @BeforeAll
    static void measureTheVerbsContext() {
        fullSize = fake.verbsContextSize();
    }

    /** A context whose verbs_context claims to end just before {@code op} (or just at it). */
    private static long contextReaching(long opOffset, boolean includingIt) {
        long sz = fullSize - opOffset - (includingIt ? 0 : 1);
        return fake.context(true, sz, true);
    }

    @Test
    void theGeneratedLayoutMatchesGcc() {
        assertEquals(fullSize, verbs_context.SIZE);
        assertEquals(fake.offsetInVerbsContext("query_port"), ExtendedOps.QUERY_PORT);
        assertEquals(fake.offsetInVerbsContext("create_cq_ex"), ExtendedOps.CREATE_CQ_EX);
        assertEquals(fake.offsetInVerbsContext("create_qp_ex"), ExtendedOps.CREATE_QP_EX);
        assertEquals(fake.offsetInVerbsContext("query_device_ex"), ExtendedOps.QUERY_DEVICE_EX);
    }

    @Test
    void verbsContextSitsRightBeforeTheContext() {
        assertEquals(context - verbs_context.context$OFFSET, ExtendedOps.verbsContext(context));
        long legacy = fake.context(false, fullSize, true);
        assertEquals(0, ExtendedOps.verbsContext(legacy), "abi_compat does not say extended");
        assertFalse(ExtendedOps.hasOp(legacy, ExtendedOps.CREATE_CQ_EX));
        assertTrue(ExtendedOps.hasOp(context, ExtendedOps.CREATE_CQ_EX));
    }

    @Test
    void theSizeGuardIsTheHeaders() {
        assertTrue(ExtendedOps.hasOp(contextReaching(ExtendedOps.QUERY_PORT, true), ExtendedOps.QUERY_PORT));
        assertFalse(ExtendedOps.hasOp(contextReaching(ExtendedOps.QUERY_PORT, false), ExtendedOps.QUERY_PORT));
        // Ops further from ibv_context (lower offsets) vanish first as sz shrinks.
        long small = contextReaching(ExtendedOps.CREATE_CQ_EX, true);
        assertTrue(ExtendedOps.hasOp(small, ExtendedOps.CREATE_CQ_EX));
        assertFalse(ExtendedOps.hasOp(small, ExtendedOps.QUERY_PORT));
    }

    @Test
    void queryPortUsesTheProvidersFullQuery() {
        MemorySegment attr = arena.allocate(ibv_port_attr.LAYOUT);
        assertEquals(0, ExtendedOps.queryPort(context, 1, attr.address()));
        // the size argument is sizeof(struct ibv_port_attr)
        assertLastCall("query_port", context, 1, attr.address(), ibv_port_attr.SIZE);
        assertEquals(VerbsConstants.IBV_PORT_ACTIVE, ibv_port_attr.state(attr));
        assertEquals(VerbsConstants.IBV_MTU_1024, ibv_port_attr.active_mtu(attr));
    }

    @Test
    void queryPortFallsBackToTheCompatExportAfterZeroing() {
        long old = contextReaching(ExtendedOps.QUERY_PORT, false);
        MemorySegment attr = arena.allocate(ibv_port_attr.LAYOUT);
        attr.fill((byte) 0x5a);
        assertEquals(0, ExtendedOps.queryPort(old, 2, attr.address()));
        assertLastCall("ibv_query_port", old, 2);
        assertEquals(VerbsConstants.IBV_PORT_ARMED, ibv_port_attr.state(attr));
        assertEquals(0, ibv_port_attr.active_mtu(attr), "the header zeroes the struct first");
    }

    @Test
    void queryPortErrorsAndBadInput() {
        MemorySegment attr = arena.allocate(ibv_port_attr.LAYOUT);
        fake.nextReturn(TestErrno.EINVAL);
        assertEquals(TestErrno.EINVAL, ExtendedOps.queryPort(context, 9, attr.address()));
        long calls = fake.calls();
        assertThrows(IllegalArgumentException.class, () -> ExtendedOps.queryPort(context, 256, attr.address()));
        assertThrows(IllegalArgumentException.class, () -> ExtendedOps.queryPort(context, 1, 0));
        assertEquals(calls, fake.calls());
    }

    @Test
    void createCqExCallsTheProvider() {
        MemorySegment attr = arena.allocate(ibv_cq_init_attr_ex.LAYOUT);
        long cq = IbverbsCalls.ibv_create_cq_ex(state, context, attr.address());
        assertTrue(cq != 0);
        assertLastCall("create_cq_ex", context, attr.address());

        fake.nextReturn(TestErrno.EINVAL);
        assertEquals(0, IbverbsCalls.ibv_create_cq_ex(state, context, attr.address()));
        assertEquals(TestErrno.EINVAL, CallState.errno(state), "errno captured from the provider");
    }

    @Test
    void createCqExOnATooSmallContextIsEopnotsuppWithoutACall() {
        MemorySegment attr = arena.allocate(ibv_cq_init_attr_ex.LAYOUT);
        long calls = fake.calls();
        for (long unfit : new long[] {contextReaching(ExtendedOps.CREATE_CQ_EX, false),
                fake.context(true, fullSize, false), fake.context(false, fullSize, true)}) {
            state.fill((byte) 0); // errno 0 again
            assertEquals(0, IbverbsCalls.ibv_create_cq_ex(state, unfit, attr.address()));
            assertEquals(TestErrno.EOPNOTSUPP, CallState.errno(state), "the header's errno = EOPNOTSUPP");
        }
        assertEquals(calls, fake.calls(), "never a call through a missing op");
    }

    @Test
    void createQpExWithOnlyAPdIsPlainCreateQp() {
        long pd = fake.pd(context);
        MemorySegment attr = arena.allocate(ibv_qp_init_attr_ex.LAYOUT);
        ibv_qp_init_attr_ex.comp_mask(attr, VerbsConstants.IBV_QP_INIT_ATTR_PD);
        ibv_qp_init_attr_ex.pd(attr, MemorySegment.ofAddress(pd));
        // Even a provider without create_qp_ex serves this form.
        long old = contextReaching(ExtendedOps.CREATE_QP_EX, false);
        assertTrue(ExtendedOps.createQpEx(CallState.allocate(arena), old, attr.address()) != 0);
        assertLastCall("ibv_create_qp", pd, attr.address());
    }

    @Test
    void createQpExWithMoreGoesToTheProvider() {
        MemorySegment attr = arena.allocate(ibv_qp_init_attr_ex.LAYOUT);
        ibv_qp_init_attr_ex.comp_mask(attr, VerbsConstants.IBV_QP_INIT_ATTR_PD | VerbsConstants.IBV_QP_INIT_ATTR_CREATE_FLAGS);
        ibv_qp_init_attr_ex.pd(attr, MemorySegment.ofAddress(fake.pd(context)));
        assertTrue(ExtendedOps.createQpEx(state, context, attr.address()) != 0);
        assertLastCall("create_qp_ex", context, attr.address());

        assertEquals(0, ExtendedOps.createQpEx(state, contextReaching(ExtendedOps.CREATE_QP_EX, false), attr.address()));
        assertEquals(TestErrno.EOPNOTSUPP, CallState.errno(state));
    }

    @Test
    void queryDeviceExUsesTheProvider() {
        MemorySegment attr = arena.allocate(ibv_device_attr_ex.LAYOUT);
        assertEquals(0, ExtendedOps.queryDeviceEx(context, 0, attr.address()), "the extended query ran");
        assertLastCall("query_device_ex", context, 0, attr.address(), ibv_device_attr_ex.SIZE);
        assertEquals(4096, ibv_device_attr_ex.max_dm_size(attr));
    }

    @Test
    void queryDeviceExFallsBackToTheLegacyQueryOnEopnotsupp() {
        MemorySegment attr = arena.allocate(ibv_device_attr_ex.LAYOUT);
        fake.nextReturn(TestErrno.EOPNOTSUPP);
        assertEquals(ExtendedOps.LEGACY_ATTRIBUTES_ONLY, ExtendedOps.queryDeviceEx(context, 0, attr.address()),
                "only the legacy query ran");
        assertEquals("ibv_query_device", fake.lastOp());
        assertEquals(attr.address() + ibv_device_attr_ex.orig_attr$OFFSET, fake.arg(1));
        assertEquals(55, ibv_device_attr.max_qp(ibv_device_attr_ex.orig_attr(attr)));
        assertEquals(0, ibv_device_attr_ex.max_dm_size(attr), "zeroed before the legacy query");

        fake.reset();
        assertEquals(ExtendedOps.LEGACY_ATTRIBUTES_ONLY,
                ExtendedOps.queryDeviceEx(contextReaching(ExtendedOps.QUERY_DEVICE_EX, false), 0, attr.address()),
                "no query_device_ex op: only the legacy query ran");
        assertEquals("ibv_query_device", fake.lastOp());
    }

    @Test
    void queryDeviceExRejectsAnInputCompMask() {
        MemorySegment input = arena.allocate(ibv_query_device_ex_input.LAYOUT);
        ibv_query_device_ex_input.comp_mask(input, 1);
        MemorySegment attr = arena.allocate(ibv_device_attr_ex.LAYOUT);
        long calls = fake.calls();
        assertEquals(TestErrno.EINVAL, ExtendedOps.queryDeviceEx(context, input.address(), attr.address()));
        assertEquals(calls, fake.calls());
    }

    @Test
    void modifyCqPassesTheModerationAsGccLaysItOut() {
        long cq = fake.cq(context);
        MemorySegment attr = arena.allocate(dev.panamaverbs.ffm.ibv_modify_cq_attr.LAYOUT);
        dev.panamaverbs.ffm.ibv_modify_cq_attr.attr_mask(attr, dev.panamaverbs.ffm.VerbsConstants.IBV_CQ_ATTR_MODERATE);
        MemorySegment moderate = dev.panamaverbs.ffm.ibv_modify_cq_attr.moderate(attr);
        dev.panamaverbs.ffm.ibv_moderate_cq.cq_count(moderate, (short) 0xFFFE);
        dev.panamaverbs.ffm.ibv_moderate_cq.cq_period(moderate, (short) 300);
        assertEquals(0, IbverbsCalls.ibv_modify_cq(cq, attr.address()));
        // 0xFFFE is cq_count, a uint16_t; 300 is cq_period
        assertLastCall("modify_cq", cq, attr.address(), dev.panamaverbs.ffm.VerbsConstants.IBV_CQ_ATTR_MODERATE, 0xFFFE, 300);
        fake.nextReturn(TestErrno.EINVAL);
        assertEquals(TestErrno.EINVAL, IbverbsCalls.ibv_modify_cq(cq, attr.address()));

        long calls = fake.calls();
        long older = fake.cq(contextReaching(dev.panamaverbs.ffm.verbs_context.modify_cq$OFFSET, false));
        assertEquals(OpsTable.EOPNOTSUPP, IbverbsCalls.ibv_modify_cq(older, attr.address()), "a provider without modify_cq");
        assertEquals(calls, fake.calls());
    }

    @Test
    void queryRtValuesReturnsTheRawClock() {
        MemorySegment values = arena.allocate(dev.panamaverbs.ffm.ibv_values_ex.LAYOUT);
        dev.panamaverbs.ffm.ibv_values_ex.comp_mask(values, dev.panamaverbs.ffm.VerbsConstants.IBV_VALUES_MASK_RAW_CLOCK);
        assertEquals(0, IbverbsCalls.ibv_query_rt_values_ex(context, values.address()));
        assertLastCall("query_rt_values", context);
        assertEquals(dev.panamaverbs.ffm.VerbsConstants.IBV_VALUES_MASK_RAW_CLOCK, fake.arg(2));
        MemorySegment clock = dev.panamaverbs.ffm.ibv_values_ex.raw_clock(values);
        assertEquals(12, dev.panamaverbs.ffm.timespec.tv_sec(clock));
        assertEquals(345678901, dev.panamaverbs.ffm.timespec.tv_nsec(clock));
        long calls = fake.calls();
        assertEquals(OpsTable.EOPNOTSUPP, IbverbsCalls.ibv_query_rt_values_ex(
                contextReaching(dev.panamaverbs.ffm.verbs_context.query_rt_values$OFFSET, false), values.address()));
        assertEquals(calls, fake.calls());
    }
}
