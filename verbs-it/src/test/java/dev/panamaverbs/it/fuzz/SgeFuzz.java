package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

/**
 * Foreign, closed or out-of-bounds memory in scatter/gather entries, posted as RDMA WRITEs
 * (INLINE or not) and receives on an RC loopback pair: regions of another PD and of another
 * context, a closed region, a region whose memory's arena closed, a region and inline data over a
 * file mapping whose file was truncated (the provider's INLINE copy would fault), offsets and
 * lengths around and far beyond the region's bounds, entry counts beyond max_sge, heap and closed
 * inline data. Each case ends refused, or clean (the device may fail the request in its
 * completion); a pair whose QP an accepted bad request put in the error state is replaced.
 */
final class SgeFuzz {
    private static final int CASES = 80;
    private static final int SIZE = 4096;
    private static final long[] OFFSETS = {-1, 0, 1, SIZE - 1, SIZE, SIZE + 1, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
    private static final int[] LENGTHS = {-1, 0, 1, 8, 64, 65, SIZE, SIZE + 1, Integer.MAX_VALUE, Integer.MIN_VALUE};

    private SgeFuzz() {}

    static void run(TestDevice device, FuzzRun run) throws IOException {
        Random random = run.random();
        Path file = Files.createTempFile("sge-fuzz", ".bin");
        try (Arena arena = Arena.ofShared(); FileChannel channel = FileChannel.open(file, StandardOpenOption.READ,
                StandardOpenOption.WRITE); Context otherContext = DeviceScope.openContext(device)) {
            channel.write(java.nio.ByteBuffer.allocate(2 * SIZE));
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, 2 * SIZE, arena);
            RegisteredBuffer foreignContext = RegisteredBuffer.allocate(otherContext.allocateProtectionDomain(), SIZE);
            Completions completions = Completions.allocate(arena, 16);
            RcLoopbackPair pair = null;
            RegisteredBuffer foreignPd = null;
            try {
                for (int i = 0; i < CASES; i++) {
                    // A new pair when an accepted bad request put a queue pair in the error state.
                    if (pair == null || pair.first().queryState() != QueuePairState.RTS || pair.second().queryState() != QueuePairState.RTS) {
                        if (pair != null) {
                            pair.close();
                        }
                        pair = RcLoopbackPair.open(device, QueuePairType.RC, 8192, 64);
                        foreignPd = RegisteredBuffer.allocate(pair.context().allocateProtectionDomain(), SIZE);
                    }
                    oneCase(run, random, i, pair, foreignPd, foreignContext, mapped, channel);
                    pair.firstQueue().poll(completions);
                    pair.secondQueue().poll(completions);
                }
            } finally {
                if (pair != null) {
                    pair.close();
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void oneCase(FuzzRun run, Random random, int i, RcLoopbackPair pair, RegisteredBuffer foreignPd,
                                RegisteredBuffer foreignContext, MemorySegment mapped, FileChannel file) throws IOException {
        int kind = random.nextInt(9);
        long offset = random.nextBoolean() ? random.nextInt(SIZE) : OFFSETS[random.nextInt(OFFSETS.length)];
        int length = random.nextBoolean() ? random.nextInt(65) : LENGTHS[random.nextInt(LENGTHS.length)];
        boolean inline = random.nextBoolean();
        SendWorkRequest write = SendWorkRequest.allocate(4).wrId(i).opcode(WorkRequestOpcode.RDMA_WRITE)
                .signaled(true).inline(inline)
                .rdma(pair.secondBuffer().deviceAddress(0), pair.secondBuffer().region().rkey());
        switch (kind) {
            case 0 -> run.misuse(i + " bounds " + offset + "+" + length + (inline ? " inline" : ""), () ->
                    pair.first().postSend(write.sge(pair.firstBuffer().region(), offset, length)));
            case 1 -> run.misuse(i + " region of another PD", () ->
                    pair.first().postSend(write.sge(foreignPd.region(), 0, 16)));
            case 2 -> run.misuse(i + " region of another context", () ->
                    pair.first().postSend(write.sge(foreignContext.region(), 0, 16)));
            case 3 -> {
                MemoryRegion closed = pair.protectionDomain().allocateMemoryRegion(SIZE, EnumSet.of(AccessFlag.LOCAL_WRITE));
                write.sge(closed, 0, 16);
                closed.close();
                run.misuse(i + " closed region" + (inline ? " inline" : ""), () -> pair.first().postSend(write));
            }
            case 4 -> {
                Arena memoryArena = Arena.ofShared();
                MemoryRegion region = pair.protectionDomain().register(memoryArena.allocate(SIZE, SIZE),
                        EnumSet.of(AccessFlag.LOCAL_WRITE));
                write.sge(region, 0, 16);
                memoryArena.close();
                run.misuse(i + " region whose arena closed" + (inline ? " inline" : ""), () -> pair.first().postSend(write));
                region.close();
            }
            case 5 -> {
                // A file mapping whose file shrank under it: a CPU read of the lost pages faults (SIGBUS).
                MemorySegment data = mapped.asSlice(SIZE, SIZE);
                MemoryRegion[] region = new MemoryRegion[1];
                try {
                    run.misuse(i + (inline ? " INLINE from a region over a truncated file mapping"
                            : " inline data from a truncated file mapping"), () -> {
                        if (inline) {
                            region[0] = pair.protectionDomain().register(data, EnumSet.of(AccessFlag.LOCAL_WRITE));
                            write.sge(region[0], 0, 32);
                        }
                        file.truncate(0);
                        pair.first().postSend(inline ? write : write.inlineData(data.asSlice(0, 32)));
                    });
                } finally {
                    if (region[0] != null) {
                        region[0].close();
                    }
                    file.write(java.nio.ByteBuffer.allocate(2 * SIZE), 0);
                }
            }
            case 6 -> run.misuse(i + " sge count " + (length & 7), () ->
                    pair.first().postSend(write.sge(pair.firstBuffer().region(), 0, 8).sgeCount(length & 7)));
            case 7 -> {
                Arena dataArena = Arena.ofShared();
                MemorySegment data = dataArena.allocate(32);
                boolean heap = random.nextBoolean();
                run.misuse(i + (heap ? " heap inline data" : " inline data whose arena closed"), () -> {
                    write.inlineData(heap ? MemorySegment.ofArray(new byte[32]) : data);
                    dataArena.close();
                    pair.first().postSend(write);
                });
                if (dataArena.scope().isAlive()) {
                    dataArena.close();
                }
            }
            default -> {
                MemoryRegion target = random.nextBoolean() ? pair.secondBuffer().region() : foreignPd.region();
                run.misuse(i + " receive " + offset + "+" + length, () -> pair.second().postReceive(
                        ReceiveWorkRequest.allocate(2).wrId(i).sge(0, target, offset, length)));
            }
        }
    }
}
