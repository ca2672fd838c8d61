package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.util.EnumSet;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Exhaustion until the device refuses: receive queues, an SRQ and a multicast group (rxe allows
 * 56 QPs per group) filled until the verb fails, which it must, with a {@link VerbsException}; a
 * send queue and a CQ flooded without polling; and PDs, CQs, regions, windows, address handles
 * and QPs created until the device refuses or a bound (the device's limits are far above what a
 * test can afford under TCG). Every object is freed by closing the context, and the child's
 * kernel counts show it.
 */
final class ExhaustionFuzz {
    private static final int OBJECT_BOUND = 100;
    private static final long OBJECT_NANOS = 1_500_000_000L;

    private ExhaustionFuzz() {}

    static void run(TestDevice device, FuzzRun run) {
        List<Class<? extends Throwable>> refusal = List.of(VerbsException.class);
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(1).sge(0, pair.secondBuffer().region(), 0, 8);
            run.run("receive queue until refused", refusal, () -> {
                for (int i = 0; i < 10_000; i++) {
                    pair.second().postReceive(receive.wrId(i));
                }
                throw new AssertionError("10,000 receives accepted by a queue of 64");
            });
            SharedReceiveQueue srq = pair.protectionDomain().createSharedReceiveQueue(SharedReceiveQueueOptions.of(16, 1));
            run.run("shared receive queue until refused", refusal, () -> {
                for (int i = 0; i < 10_000; i++) {
                    srq.postReceive(receive.wrId(i));
                }
                throw new AssertionError("10,000 receives accepted by an SRQ of 16");
            });
            SendWorkRequest write = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .sge(pair.firstBuffer().region(), 0, 4096)
                    .rdma(pair.secondBuffer().deviceAddress(0), pair.secondBuffer().region().rkey());
            run.run("send queue and CQ flooded without polling", refusal, () -> {
                for (int i = 0; i < 1_000; i++) {
                    pair.first().postSend(write.wrId(i));
                }
            });
            multicast(run, pair, device);
        }
        try (Context context = DeviceScope.openContext(device)) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            GidEntry gid = DeviceScope.sourceGid(context, device);
            var cq = context.createCompletionQueue(16);
            until(run, "protection domains", i -> context.allocateProtectionDomain());
            until(run, "completion queues", i -> context.createCompletionQueue(16));
            until(run, "memory regions", i -> pd.allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE)));
            until(run, "memory windows", i -> pd.allocateMemoryWindow(MemoryWindowType.TYPE_2));
            until(run, "address handles", i -> pd.createAddressHandle(AddressHandleAttributes.roce(gid, gid.gid())));
            until(run, "queue pairs", i -> pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq)
                    .maxSendWorkRequests(4).maxReceiveWorkRequests(4).build()));
        }
    }

    /** UD QPs attached to one group until the device refuses, past its max_mcast_qp_attach. */
    private static void multicast(FuzzRun run, RcLoopbackPair pair, TestDevice device) {
        int limit = pair.context().queryDevice().maxMcastQpAttach();
        if (limit <= 0 || limit > 256) {
            System.out.println("multicast exhaustion not run: max_mcast_qp_attach " + limit);
            return;
        }
        Gid group = Gid.parse("::ffff:239.1.2.4");
        run.run("multicast group past max_mcast_qp_attach " + limit, List.of(VerbsException.class), () -> {
            for (int i = 0; i <= limit + 1; i++) {
                QueuePair qp = pair.protectionDomain().createQueuePair(QueuePairOptions.builder(QueuePairType.UD, pair.firstQueue())
                        .maxSendWorkRequests(1).maxReceiveWorkRequests(1).build());
                qp.toInit(device.port(), 0, 0x11111111);
                qp.attachMulticast(group, 0);
            }
            throw new AssertionError((limit + 2) + " QPs attached to a group of at most " + limit);
        });
    }

    /** Creates with {@code create} until the device refuses, or the bound in count or time. */
    private static void until(FuzzRun run, String what, IntConsumer create) {
        int[] made = {0};
        long start = System.nanoTime();
        run.run(what + " until refused or " + OBJECT_BOUND, List.of(VerbsException.class), () -> {
            try {
                while (made[0] < OBJECT_BOUND && System.nanoTime() - start < OBJECT_NANOS) {
                    create.accept(made[0]);
                    made[0]++;
                }
            } finally {
                System.out.println(what + ": " + made[0] + " made in " + (System.nanoTime() - start) / 1_000_000 + " ms");
            }
        });
    }
}
