package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

/**
 * Dropped references with GC: children of an open context (PDs, CQs, regions, QPs, SRQs) dropped
 * without close, requests and batches of automatic arenas dropped while or after they are used,
 * a region over automatic memory whose segment is dropped, then several GCs; the pair goes on
 * moving data correctly, and closing the context frees every dropped object (the child's kernel
 * counts check it before it exits). A context itself is never dropped: the library has no
 * cleaner, so an unclosed context lives until the process exits, as documented.
 */
final class DroppedReferenceFuzz {
    private static final int ROUNDS = 6;

    private DroppedReferenceFuzz() {}

    static void run(TestDevice device, FuzzRun run) {
        Random random = run.random();
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            for (int round = 0; round < ROUNDS; round++) {
                int drops = 1 + random.nextInt(20);
                int seed = random.nextInt();
                run.run("round " + round + ": " + drops + " dropped objects, GC, then RDMA WRITE and SEND", List.of(), () -> {
                    dropSome(pair, drops, new Random(seed));
                    System.gc();
                    moveData(pair, seed);
                    System.gc();
                });
            }
            // A receive posted from a request whose arena the GC frees before the send arrives.
            run.run("receive request dropped before its completion", List.of(), () -> {
                pair.second().postReceive(ReceiveWorkRequest.allocate(1).wrId(9).sge(0, pair.secondBuffer().region(), 0, 64));
                for (int i = 0; i < 3; i++) {
                    System.gc();
                }
                pair.first().postSend(SendWorkRequest.allocate(1).wrId(10).signaled(true).sge(pair.firstBuffer().region(), 0, 64));
                CompletionWaiter.awaitSuccess(pair.secondQueue(), Completions.allocate(4));
                CompletionWaiter.awaitSuccess(pair.firstQueue(), Completions.allocate(4));
            });
        }
    }

    private static void dropSome(RcLoopbackPair pair, int count, Random random) {
        for (int i = 0; i < count; i++) {
            switch (random.nextInt(7)) {
                case 0 -> pair.context().allocateProtectionDomain();
                case 1 -> pair.context().createCompletionQueue(8);
                case 2 -> pair.protectionDomain().allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
                case 3 -> pair.protectionDomain().createQueuePair(QueuePairOptions.builder(QueuePairType.RC, pair.firstQueue()).build());
                case 4 -> pair.protectionDomain().createSharedReceiveQueue(SharedReceiveQueueOptions.of(4, 1));
                case 5 -> Completions.allocate(64);
                default -> SendWorkRequest.allocate(4);
            }
        }
    }

    /** An RDMA WRITE from a region over automatic memory whose segment is dropped, checked byte by byte. */
    private static void moveData(RcLoopbackPair pair, int seed) {
        MemoryRegion source = pair.protectionDomain().register(Arena.ofAuto().allocate(4096, 4096),
                EnumSet.of(AccessFlag.LOCAL_WRITE));
        source.memory().fill((byte) seed);
        System.gc(); // the segment is only reachable through the region now
        pair.first().postSend(SendWorkRequest.allocate(1).wrId(seed).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .sge(source, 0, 4096).rdma(pair.secondBuffer().deviceAddress(0), pair.secondBuffer().region().rkey()));
        CompletionWaiter.awaitSuccess(pair.firstQueue(), Completions.allocate(4));
        MemorySegment target = pair.secondBuffer().memory();
        for (int i = 0; i < 4096; i++) {
            if (target.get(ValueLayout.JAVA_BYTE, i) != (byte) seed) {
                throw new AssertionError("byte " + i + " of the written buffer is wrong");
            }
        }
        source.close();
    }
}
