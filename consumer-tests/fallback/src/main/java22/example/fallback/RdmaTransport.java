package example.fallback;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;

/**
 * The RDMA path, compiled with --release 22: the message goes by RDMA WRITE through a queue pair
 * connected to itself on the first device (the README quick start), and is read back from where
 * it landed. Loaded by name only after Verbs.isAvailable() said yes.
 */
public final class RdmaTransport implements Transport {
    private static final int LANDING = 2048;

    @Override
    public String name() {
        return "rdma (" + Verbs.firstDevice().name() + ")";
    }

    @Override
    public String roundTrip(String message) {
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        try (Context ctx = Verbs.firstDevice().open(); Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = ctx.allocateProtectionDomain();
            CompletionQueue cq = ctx.createCompletionQueue(16);
            MemoryRegion mr = pd.allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
            GidEntry gid = ctx.requireRoceV2Ipv4Gid(1);
            qp.toInit(1, EnumSet.of(AccessFlag.REMOTE_WRITE));
            qp.toRtr(RemoteEndpoint.global(qp.number(), 0, gid.gid(), gid.index(), Mtu.MTU_1024));
            qp.toRts(0);
            mr.memory().asSlice(0, bytes.length).copyFrom(java.lang.foreign.MemorySegment.ofArray(bytes));
            qp.postSend(SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .sge(0, mr, 0, bytes.length).rdma(mr.iova() + LANDING, mr.rkey()));
            Completions wc = Completions.allocate(arena, 4);
            while (cq.poll(wc) == 0) {
                Thread.onSpinWait();
            }
            wc.throwIfFailed(0);
            return new String(mr.memory().asSlice(LANDING, bytes.length).toArray(ValueLayout.JAVA_BYTE),
                    StandardCharsets.UTF_8);
        }
    }
}
