package dev.panamaverbs.it.device;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import org.junit.jupiter.api.Assumptions;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The README's quick start, line for line (keep them in step): it must run on a real device. */
class QuickStartDeviceTest {

    @DeviceTest
    void theReadmeQuickStartRuns(TestDevice device) {
        Assumptions.assumeTrue(Verbs.devices().getFirst().name().equals(device.name()), "quick start uses the first device");
        MemorySegment[] written = new MemorySegment[1];
        // ---- README quick start ----
        try (Context ctx = Verbs.firstDevice().open(); Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = ctx.allocateProtectionDomain();
            CompletionQueue cq = ctx.createCompletionQueue(64);
            MemoryRegion mr = pd.allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
            GidEntry gid = ctx.requireRoceV2Ipv4Gid(1);          // RoCE v2: the GID picked by type
            qp.toInit(1, EnumSet.of(AccessFlag.REMOTE_WRITE));
            qp.toRtr(RemoteEndpoint.global(qp.number(), 0, gid.gid(), gid.index(), Mtu.MTU_1024)); qp.toRts(0);
            mr.memory().asSlice(0, 64).fill((byte) 42);
            qp.postSend(SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .sge(0, mr, 0, 64).rdma(mr.iova() + 2048, mr.rkey()));   // write bytes 0..63 to 2048..2111
            Completions wc = Completions.allocate(arena, 16);
            while (cq.poll(wc) == 0) Thread.onSpinWait();
            wc.throwIfFailed(0);
            // ---- end of quick start ----
            written[0] = MemorySegment.ofArray(mr.memory().asSlice(2048, 64).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }                                             // closing the context frees everything under it
        assertEquals(-1, written[0].mismatch(MemorySegment.ofArray(new byte[64]).fill((byte) 42)));
    }
}
