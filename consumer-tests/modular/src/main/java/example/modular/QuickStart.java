package example.modular;

import dev.panamaverbs.*;
import java.lang.foreign.Arena;
import java.util.EnumSet;

/**
 * The README's quick start, as a user's modular application. Run with
 * {@code java --enable-native-access=dev.panamaverbs.ffm,dev.panamaverbs.loader -p target/classes:target/lib -m example.modular/example.modular.QuickStart}.
 */
public final class QuickStart {
    private QuickStart() {}

    public static void main(String[] args) {
        String device;
        byte written;
        // ---- README quick start ----
        try (Context ctx = Verbs.firstDevice().open(); Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = ctx.allocateProtectionDomain();
            CompletionQueue cq = ctx.createCompletionQueue(64);
            MemoryRegion mr = pd.allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QpType.RC, cq).build());
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
            device = ctx.device().name();
            written = mr.memory().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 2111);
        }
        if (written != 42) {
            throw new IllegalStateException("RDMA WRITE did not land: byte 2111 is " + written);
        }
        System.out.println("quick start OK (module path, panama-verbs " + Verbs.version() + "): RDMA WRITE of 64 bytes on " + device);
    }
}
