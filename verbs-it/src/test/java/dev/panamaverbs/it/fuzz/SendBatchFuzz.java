package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.Completions;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendBatch;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.util.EnumSet;
import java.util.Random;

/**
 * {@link SendBatch} misuse, in two categories' cases: a seeded walk of start, add (the same
 * request again, too many), complete and abort on one batch, including reuse after complete and
 * after abort, then every call once the queue pair is closed; and capacities at the edges
 * (below 1, the queue's {@code max_send_wr} and just above, 64 Ki, {@code Integer.MAX_VALUE}),
 * each once and then at random, filled and completed. Each
 * call ends clean or with a documented exception; what a clean complete posted is reaped.
 */
final class SendBatchFuzz {
    private static final int WALK_STEPS = 60;
    private static final long DRAIN_NANOS = 5_000_000_000L;

    private SendBatchFuzz() {}

    /** Reuse after complete and abort, then calls on a batch whose queue pair is closed. */
    static void reuseAndClosedQueuePair(TestDevice device, FuzzRun run) {
        Random random = run.random();
        try (RcLoopbackPair pair = RcLoopbackPair.openExtended(device, 64, EnumSet.of(WorkRequestOpcode.RDMA_WRITE));
                Arena arena = Arena.ofConfined()) {
            QueuePair qp = pair.first();
            int capacity = 1 + random.nextInt(8);
            SendBatch batch = SendBatch.allocate(arena, qp, capacity);
            SendWorkRequest write = write(arena, pair, 0);
            SendWorkRequest other = write(arena, pair, 64);
            Completions completions = Completions.allocate(arena, 16);
            for (int step = 0; step < WALK_STEPS; step++) {
                String name = "batch step " + step + " ";
                switch (random.nextInt(6)) {
                    case 0 -> run.misuse(name + "start", batch::start);
                    case 1 -> run.misuse(name + "add", () -> batch.add(write));
                    case 2 -> run.misuse(name + "add another", () -> batch.add(other));
                    case 3 -> run.misuse(name + "abort", batch::abort);
                    case 4 -> run.misuse(name + "size/isStarted", () -> {
                        if (batch.size() > batch.capacity() || batch.size() < 0) {
                            throw new AssertionError("size " + batch.size() + " outside 0.." + batch.capacity());
                        }
                        batch.isStarted();
                    });
                    default -> run.misuse(name + "complete (" + batch.size() + " requests)", () -> {
                        int size = batch.size();
                        batch.complete();
                        drain(pair, completions, size);
                    });
                }
            }
            run.misuse("abort or complete what the walk left", () -> {
                if (batch.isStarted()) {
                    batch.abort();
                }
            });
            qp.close();
            run.misuse("allocate on a closed queue pair", () -> SendBatch.allocate(arena, qp, 1));
            run.misuse("start on a closed queue pair", batch::start);
            run.misuse("add on a closed queue pair", () -> batch.add(write));
            run.misuse("complete on a closed queue pair", batch::complete);
            run.misuse("abort on a closed queue pair", batch::abort);
            run.misuse("a second complete", batch::complete);
        }
    }

    /** Capacities at the edges, each batch filled to its capacity (or beyond) and completed. */
    static void capacities(TestDevice device, FuzzRun run) {
        Random random = run.random();
        try (RcLoopbackPair pair = RcLoopbackPair.openExtended(device, 64, EnumSet.of(WorkRequestOpcode.RDMA_WRITE));
                Arena arena = Arena.ofConfined()) {
            QueuePair qp = pair.first();
            int depth = qp.capabilities().maxSendWorkRequests();
            SendWorkRequest write = write(arena, pair, 0);
            Completions completions = Completions.allocate(arena, 16);
            // Integer.MAX_VALUE too: allocate refuses a capacity above max_send_wr before it makes its arrays.
            int[] capacities = {Integer.MIN_VALUE, -1, 0, 1, depth - 1, depth, depth + 1, 2 * depth, 1 << 16,
                Integer.MAX_VALUE};
            for (int i = 0; i < 2 * capacities.length; i++) {
                // Each edge once, then random ones.
                int capacity = capacities[i < capacities.length ? i : random.nextInt(capacities.length)];
                int adds = random.nextBoolean() ? capacity : capacity + 1;
                run.misuse("capacity " + capacity + " (max_send_wr " + depth + "), " + adds + " adds", () -> {
                    SendBatch batch = SendBatch.allocate(arena, qp, capacity);
                    batch.start();
                    try {
                        for (int a = 0; a < adds; a++) {
                            batch.add(write);
                        }
                    } finally {
                        int size = batch.size();
                        batch.complete();
                        drain(pair, completions, size);
                    }
                });
            }
        }
    }

    private static SendWorkRequest write(Arena arena, RcLoopbackPair pair, int offset) {
        return SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .sge(pair.firstBuffer().region(), offset, 8)
                .rdma(pair.secondBuffer().deviceAddress(offset), pair.secondBuffer().region().rkey());
    }

    /** Reaps {@code count} completions, or what arrives within a few seconds. */
    private static void drain(RcLoopbackPair pair, Completions completions, int count) {
        long deadline = System.nanoTime() + DRAIN_NANOS;
        int reaped = 0;
        while (reaped < count && System.nanoTime() - deadline < 0) {
            reaped += pair.firstQueue().poll(completions);
        }
        if (reaped < count) {
            throw new AssertionError("only " + reaped + " of " + count + " completions of a completed batch arrived");
        }
    }
}
