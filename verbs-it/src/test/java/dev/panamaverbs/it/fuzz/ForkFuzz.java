package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code fork()} while regions are registered: the child JVM runs with
 * {@code jdk.lang.Process.launchMechanism=FORK}, so each {@link ProcessBuilder} start forks it
 * with the pair's regions (one the region allocated, one over the caller's memory) registered.
 * Each round the forked child must run and exit with the status it was asked for, and after it
 * the parent writes new bytes into its regions (so copy-on-write, if any, happens in the parent)
 * and an RDMA WRITE must carry exactly those bytes: the pages the device uses are still the
 * parent's. One round forks while another thread posts.
 */
final class ForkFuzz {
    private static final int ROUNDS = 5;

    private ForkFuzz() {}

    static void run(TestDevice device, FuzzRun run) throws Exception {
        System.out.println("fork status " + Verbs.forkStatus() + ", launch mechanism "
                + System.getProperty("jdk.lang.Process.launchMechanism"));
        Random random = run.random();
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
                java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
            MemoryRegion callers = pair.protectionDomain().register(arena.allocate(4096, 4096),
                    EnumSet.of(AccessFlag.LOCAL_WRITE));
            for (int round = 0; round < ROUNDS; round++) {
                int status = random.nextInt(100);
                byte value = (byte) random.nextInt();
                boolean posting = round == ROUNDS - 1;
                run.run("round " + round + (posting ? " while posting" : "") + ": fork, exit " + status, List.of(), () -> {
                    AtomicBoolean stop = new AtomicBoolean();
                    Thread poster = posting ? Thread.ofPlatform().start(() -> postUntil(pair, stop)) : null;
                    Process child = new ProcessBuilder("sh", "-c", "exit " + status).start();
                    if (!child.waitFor(20, TimeUnit.SECONDS) || child.exitValue() != status) {
                        throw new AssertionError("the forked child did not exit with " + status);
                    }
                    if (poster != null) {
                        stop.set(true);
                        poster.join(20_000);
                    }
                    writeAndCheck(pair, pair.firstBuffer().region(), value);
                    writeAndCheck(pair, callers, (byte) ~value);
                });
            }
        }
    }

    private static void postUntil(RcLoopbackPair pair, AtomicBoolean stop) {
        SendWorkRequest write = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .sge(pair.firstBuffer().region(), 0, 64).rdma(pair.secondBuffer().deviceAddress(8192),
                        pair.secondBuffer().region().rkey());
        var completions = dev.panamaverbs.Completions.allocate(4);
        while (!stop.get()) {
            pair.first().postSend(write);
            CompletionWaiter.awaitSuccess(pair.firstQueue(), completions);
        }
    }

    /** Fills {@code source} from Java, RDMA-writes it into the second buffer, checks every byte there. */
    private static void writeAndCheck(RcLoopbackPair pair, MemoryRegion source, byte value) {
        source.memory().asSlice(0, 4096).fill(value);
        pair.first().postSend(SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .sge(source, 0, 4096).rdma(pair.secondBuffer().deviceAddress(0), pair.secondBuffer().region().rkey()));
        CompletionWaiter.awaitSuccess(pair.firstQueue(), dev.panamaverbs.Completions.allocate(4));
        pair.secondBuffer().assertFilled(value, 0, 4096);
    }
}
