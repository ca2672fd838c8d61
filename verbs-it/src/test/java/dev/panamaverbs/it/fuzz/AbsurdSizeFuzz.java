package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairAttributeMask;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.values.SendFlag;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Absurd sizes and flags: seeded draws of edge values (negative, zero, one, powers of two up to
 * 64 Ki, the int and long extremes; nothing the device could grant that would take a gigabyte) for every size a verb takes (CQ entries, QP and SRQ capacities, region
 * sizes, request entry counts, batch sizes, ports, GID and pkey indexes, CQ resize and
 * moderation, SRQ limit), random access-flag and send-flag sets, random opcodes with random
 * remote addresses and keys on a live RC pair, and {@code ibv_modify_qp} with random attribute
 * bytes and masks (all but the address-vector ones). Each call ends refused or clean; what a clean call created is closed at once.
 */
final class AbsurdSizeFuzz {
    private static final int CASES = 120;
    private static final long[] EDGES = {-1, 0, 1, 2, 3, 255, 256, 4096, 65_535, 65_536, Integer.MAX_VALUE,
            Integer.MIN_VALUE, 1L << 32, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE};

    private AbsurdSizeFuzz() {}

    static void run(TestDevice device, FuzzRun run) {
        Random random = run.random();
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            Context context = pair.context();
            ProtectionDomain pd = pair.protectionDomain();
            for (int i = 0; i < CASES; i++) {
                int a = (int) edge(random);
                int b = (int) edge(random);
                // Sizes the device might grant are kept at most 64 KiB, others far above any memory:
                // granting a gigabyte would pin it in the VM.
                long drawn = edge(random);
                long big = drawn > 65_536 && drawn < 1L << 40 ? 1L << 40 : drawn;
                int what = random.nextInt(18);
                String name = i + " ";
                switch (what) {
                    case 0 -> run.misuse(name + "createCompletionQueue(" + a + ")", () -> closeNow(context.createCompletionQueue(a)));
                    case 1 -> run.misuse(name + "createQueuePair(send " + a + ", recv " + b + ")", () -> closeNow(
                            pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, pair.firstQueue())
                                    .maxSendWorkRequests(a).maxReceiveWorkRequests(b).build())));
                    case 2 -> run.misuse(name + "createQueuePair(sge " + a + ", inline " + b + ")", () -> closeNow(
                            pd.createQueuePair(QueuePairOptions.builder(QueuePairType.UD, pair.firstQueue())
                                    .maxSendSge(a).maxReceiveSge(a).maxInlineData(b).build())));
                    case 3 -> run.misuse(name + "createSharedReceiveQueue(" + a + ", " + b + ")", () -> closeNow(
                            pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(a, b))));
                    case 4 -> {
                        Set<AccessFlag> access = randomSubset(random, AccessFlag.class);
                        run.misuse(name + "allocateMemoryRegion(" + big + ", " + access + ")", () ->
                                closeNow(pd.allocateMemoryRegion(big, access)));
                    }
                    case 5 -> run.misuse(name + "Completions.allocate(" + a + ")", () -> Completions.allocate(Arena.ofAuto(), a));
                    case 6 -> run.misuse(name + "SendWorkRequest.allocate(" + a + ")", () -> SendWorkRequest.allocate(Arena.ofAuto(), a));
                    case 7 -> run.misuse(name + "ReceiveWorkRequest.allocate(" + a + ")", () -> ReceiveWorkRequest.allocate(Arena.ofAuto(), a));
                    case 8 -> run.misuse(name + "queryPort(" + a + ")", () -> context.queryPort(a));
                    case 9 -> run.misuse(name + "queryGid(" + a + ", " + b + ")", () -> context.queryGid(a, b));
                    case 10 -> run.misuse(name + "queryPkey(" + a + ", " + b + ")", () -> context.queryPkey(a, b));
                    case 11 -> run.misuse(name + "resize/moderate(" + a + ", " + b + ")", () -> {
                        try (var cq = context.createCompletionQueue(8)) {
                            if (random.nextBoolean()) {
                                cq.resize(a);
                            } else {
                                cq.moderate(a, b);
                            }
                        }
                    });
                    case 12 -> run.misuse(name + "srq setLimit/resize(" + a + ")", () -> {
                        try (var srq = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(16, 1))) {
                            if (random.nextBoolean()) {
                                srq.setLimit(a);
                            } else {
                                srq.resize(a);
                            }
                        }
                    });
                    case 13 -> run.misuse(name + "poll(max " + a + ")", () -> pair.firstQueue().poll(pair.completions(), a));
                    case 14 -> {
                        WorkRequestOpcode opcode = WorkRequestOpcode.values()[random.nextInt(WorkRequestOpcode.values().length)];
                        Set<SendFlag> flags = randomSubset(random, SendFlag.class);
                        long remote = random.nextBoolean() ? big : pair.secondBuffer().deviceAddress(0) + (a & 0xffff);
                        int rkey = random.nextBoolean() ? b : pair.secondBuffer().region().rkey();
                        run.misuse(name + opcode + " " + flags + " to " + remote + " rkey " + rkey, () -> pair.first().postSend(
                                SendWorkRequest.allocate(1).wrId(rkey).opcode(opcode).flags(flags).rdma(remote, rkey)
                                        .sge(pair.firstBuffer().region(), 0, 8)));
                    }
                    case 15 -> run.misuse(name + "allocateMemoryWindow + setEventAckBatch(" + a + ")", () -> {
                        closeNow(pd.allocateMemoryWindow(MemoryWindowType.values()[random.nextInt(2)]));
                        pair.firstQueue().setEventAckBatch(a);
                    });
                    case 16 -> run.misuse(name + "toInit(port " + a + ", pkey " + b + ")", () -> {
                        try (QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, pair.firstQueue()).build())) {
                            qp.toInit(a, b, randomSubset(random, AccessFlag.class));
                        }
                    });
                    default -> {
                        // Not the address vectors: random ones exercise the kernel's route lookup, not this library.
                        Set<QueuePairAttributeMask> mask = randomSubset(random, QueuePairAttributeMask.class);
                        mask.removeAll(EnumSet.of(QueuePairAttributeMask.ADDRESS_VECTOR, QueuePairAttributeMask.ALTERNATE_PATH));
                        run.misuse(name + "modify(random attr, " + mask + ")", () -> {
                            try (QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, pair.firstQueue()).build());
                                    Arena arena = Arena.ofConfined()) {
                                MemorySegment attr = arena.allocate(512);
                                byte[] bytes = new byte[512];
                                random.nextBytes(bytes);
                                attr.copyFrom(MemorySegment.ofArray(bytes));
                                qp.modify(attr, mask);
                            }
                        });
                    }
                }
                pair.firstQueue().poll(pair.completions());
            }
        }
    }

    private static long edge(Random random) {
        return random.nextInt(4) == 0 ? random.nextInt(1 << 16) : EDGES[random.nextInt(EDGES.length)];
    }

    private static <E extends Enum<E>> EnumSet<E> randomSubset(Random random, Class<E> type) {
        EnumSet<E> chosen = EnumSet.noneOf(type);
        for (E value : type.getEnumConstants()) {
            if (random.nextInt(3) == 0) {
                chosen.add(value);
            }
        }
        return chosen;
    }

    private static void closeNow(VerbsResource resource) {
        resource.close();
    }
}
