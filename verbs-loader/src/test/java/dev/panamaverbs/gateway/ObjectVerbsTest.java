package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_ece;
import dev.panamaverbs.ffm.ibv_mr;
import dev.panamaverbs.ffm.ibv_pd;
import dev.panamaverbs.ffm.ibv_sge;
import dev.panamaverbs.ffm.invoke.CallState;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * {@code ibv_rereg_mr}, {@code ibv_query_ece}/{@code ibv_set_ece}, the import verbs and
 * {@code ibv_advise_mr} against the fake library (the process-wide one, own JVM): the arguments
 * and the structs as gcc lays them out reach the C functions, and their answers come back.
 */
class ObjectVerbsTest extends ProcessFakeProviderTest {

    @Test
    void reregMrPassesEveryArgumentAndTheProviderUpdatesTheRegion() {
        long mr = fake.mr(context);
        long pd = fake.pd(context);
        MemorySegment region = MemorySegment.ofAddress(mr).reinterpret(ibv_mr.SIZE);
        int flags = VerbsConstants.IBV_REREG_MR_CHANGE_TRANSLATION | VerbsConstants.IBV_REREG_MR_CHANGE_ACCESS;
        int access = VerbsConstants.IBV_ACCESS_LOCAL_WRITE | VerbsConstants.IBV_ACCESS_REMOTE_READ;
        assertEquals(0, ObjectVerbs.reregMr(state, mr, flags, 0, 0x40000, 12288, access));
        assertLastCall("ibv_rereg_mr", mr, flags, 0, 0x40000, 12288, access);
        assertEquals(0x100, ibv_mr.lkey(region));
        assertEquals(0x40000, ibv_mr.addr(region).address());
        assertEquals(12288, ibv_mr.length(region));

        ObjectVerbs.reregMr(state, mr, VerbsConstants.IBV_REREG_MR_CHANGE_PD, pd, 0, 0, 0);
        assertEquals(pd, fake.arg(2));
        assertEquals(pd, ibv_mr.pd(region).address());

        fake.nextReturn(TestErrno.EINVAL);
        assertEquals(VerbsConstants.IBV_REREG_MR_ERR_CMD, ObjectVerbs.reregMr(state, mr, flags, 0, 1, 1, access));
        assertEquals(TestErrno.EINVAL, CallState.errno(state));
        assertThrows(IllegalArgumentException.class, () -> ObjectVerbs.reregMr(state, 0, flags, 0, 0, 0, 0));
    }

    @Test
    void eceTravelsAsGccLaysOutStructIbvEce() {
        long qp = fake.qp(context);
        MemorySegment ece = arena.allocate(ibv_ece.LAYOUT);
        ibv_ece.vendor_id(ece, 0x02c9);
        ibv_ece.options(ece, 0xC0FFEE01);
        ibv_ece.comp_mask(ece, 0);
        assertEquals(0, ObjectVerbs.setEce(qp, ece.address()));
        // 0x02c9 is vendor_id
        assertLastCall("ibv_set_ece", qp, ece.address(), 0x02c9);
        assertEquals(0xC0FFEE01L, fake.arg(3) & 0xFFFF_FFFFL, "options");
        assertEquals(0, fake.arg(4), "comp_mask");
        fake.nextReturn(TestErrno.EOPNOTSUPP);
        assertEquals(TestErrno.EOPNOTSUPP, ObjectVerbs.setEce(qp, ece.address()), "-1 with errno set: the errno");

        fake.reset();
        MemorySegment queried = arena.allocate(ibv_ece.LAYOUT);
        assertEquals(0, ObjectVerbs.queryEce(qp, queried.address()));
        assertLastCall("ibv_query_ece", qp);
        assertEquals(0x15b3, ibv_ece.vendor_id(queried));
        assertEquals(0x80000001, ibv_ece.options(queried));
        fake.nextReturn(TestErrno.EOPNOTSUPP);
        assertEquals(TestErrno.EOPNOTSUPP, ObjectVerbs.queryEce(qp, queried.address()), "a returned errno");
    }

    @Test
    void importsPassTheFdAndTheHandles() {
        long imported = ObjectVerbs.importDevice(state, 42);
        assertLastCall("ibv_import_device", 42);
        assertEquals(42, ibv_context.cmd_fd(MemorySegment.ofAddress(imported).reinterpret(ibv_context.SIZE)));

        long pd = ObjectVerbs.importPd(state, imported, 7);
        assertLastCall("ibv_import_pd", imported, 7);
        assertEquals(7, ibv_pd.handle(MemorySegment.ofAddress(pd).reinterpret(ibv_pd.SIZE)));

        long mr = ObjectVerbs.importMr(state, pd, 0xABCD);
        assertLastCall("ibv_import_mr", pd, 0xABCD);
        MemorySegment region = MemorySegment.ofAddress(mr).reinterpret(ibv_mr.SIZE);
        assertEquals(0x1234, ibv_mr.lkey(region));
        assertEquals(8192, ibv_mr.length(region));

        ObjectVerbs.unimportMr(mr);
        assertLastCall("ibv_unimport_mr", mr, 0xABCD);
        ObjectVerbs.unimportPd(pd);
        assertLastCall("ibv_unimport_pd", pd, 7);

        fake.nextReturn(TestErrno.EBADF);
        assertEquals(0, ObjectVerbs.importDevice(state, 99));
        assertEquals(TestErrno.EBADF, CallState.errno(state));
        fake.nextReturn(TestErrno.ENOENT);
        assertEquals(0, ObjectVerbs.importPd(state, imported, 8));
        assertEquals(TestErrno.ENOENT, CallState.errno(state));
        assertEquals(0, ObjectVerbs.importMr(state, pd, 9));
        assertEquals(TestErrno.ENOENT, CallState.errno(state));
    }

    @Test
    void adviseMrPassesTheSgeListAsGccLaysItOut() {
        long pd = fake.pd(context);
        MemorySegment sge = arena.allocate(ibv_sge.LAYOUT, 2);
        ibv_sge.addr(sge, 0x7000_0000_1000L);
        ibv_sge.length(sge, 65536);
        ibv_sge.lkey(sge, 0x77);
        assertEquals(0, IbverbsCalls.ibv_advise_mr(pd, VerbsConstants.IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
                VerbsConstants.IBV_ADVISE_MR_FLAG_FLUSH, sge.address(), 2));
        assertLastCall("advise_mr", pd, VerbsConstants.IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, VerbsConstants.IBV_ADVISE_MR_FLAG_FLUSH, sge.address(), 2, 0x7000_0000_1000L, 65536, 0x77);
        fake.nextReturn(TestErrno.EFAULT);
        assertEquals(TestErrno.EFAULT, IbverbsCalls.ibv_advise_mr(pd, 0, 0, sge.address(), 1));

        long calls = fake.calls();
        long older = fake.pd(fake.context(true, fake.verbsContextSize()
                - dev.panamaverbs.ffm.verbs_context.advise_mr$OFFSET - 1, true));
        assertEquals(OpsTable.EOPNOTSUPP, IbverbsCalls.ibv_advise_mr(older, 0, 0, sge.address(), 1), "a provider without advise_mr");
        assertEquals(calls, fake.calls());
        assertTrue(calls > 0);
    }
}
