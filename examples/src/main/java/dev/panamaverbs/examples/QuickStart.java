package dev.panamaverbs.examples;

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
import dev.panamaverbs.VerbsSetupException;
import dev.panamaverbs.VerbsUnavailableException;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

/**
 * The README's quick start as a program ({@code ./verbs demo --quick-start}): one RC queue pair
 * connected to itself writes 64 bytes into its own memory region with RDMA WRITE. The lines
 * between the markers are the README's, and QuickStartDeviceTest's (ReadmeQuickStartTest keeps
 * the three equal). Exit status 0 when the bytes arrived, 1 when they did not, 2 when this host
 * cannot run it (libibverbs unavailable, no RDMA device, no RoCE v2 GID): the message says what is
 * missing.
 */
public final class QuickStart {
    private QuickStart() {}

    /**
     * Runs the quick start on the first device.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        try {
            System.exit(run() ? 0 : 1);
        } catch (VerbsUnavailableException | VerbsSetupException e) {
            System.err.println("quick start: " + e.getMessage());
            System.exit(2);
        }
    }

    private static boolean run() {
        boolean arrived;
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
            arrived = mr.memory().asSlice(2048, 64).mismatch(MemorySegment.ofArray(new byte[64]).fill((byte) 42)) == -1;
            System.out.println("quick start on " + ctx.device().name() + ": RDMA WRITE of 64 bytes "
                    + (arrived ? "arrived" : "did NOT arrive") + " at offset 2048");
        }                                             // closing the context frees everything under it
        return arrived;
    }
}
