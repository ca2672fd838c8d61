package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/**
 * Misuse of the data path that reached the provider and crashed the JVM (or read freed memory)
 * before post/poll checked it: each is now an exception before the native call.
 */
class WorkRequestSafetyDeviceTest {
    private static final Set<AccessFlag> LOCAL = EnumSet.of(AccessFlag.LOCAL_WRITE);

    private static void assertMentions(RuntimeException e, String... texts) {
        for (String text : texts) {
            assertTrue(e.getMessage().contains(text), "'" + text + "' missing from: " + e.getMessage());
        }
    }

    @DeviceTest
    void bindMwThroughASendRequestIsRefused(TestDevice device) {
        // rxe's post_send dereferences wr->bind_mw.mw, which SendWorkRequest never fills: SIGSEGV.
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            SendWorkRequest bind = SendWorkRequest.allocate(1).wrId(77).opcode(WorkRequestOpcode.BIND_MW);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pair.first().postSend(bind));
            assertMentions(e, "ibv_post_send", "wr_id=77", "BIND_MW");
            SendWorkRequest write = SendWorkRequest.allocate(1).wrId(78).opcode(WorkRequestOpcode.ATOMIC_WRITE)
                    .sge(pair.firstBuffer().region(), 0, 8);
            assertMentions(assertThrows(IllegalArgumentException.class, () -> pair.first().postSend(write)),
                    "wr_id=78", "needs rdma(");
        }
    }

    @DeviceTest
    void inlineFromARegionAtADistinctIovaIsRefused(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device, QueuePairType.RC, 8192, 64);
                Arena arena = Arena.ofShared()) {
            MemorySegment memory = arena.allocate(4096, 4096);
            try (MemoryRegion atIova = pair.protectionDomain().register(memory, LOCAL, 0x10_0000_0000L)) {
                SendWorkRequest send = SendWorkRequest.allocate(1).wrId(5).inline(true).sge(atIova, 0, 32);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> pair.first().postSend(send));
                assertMentions(e, "ibv_post_send", "wr_id=5", "iova");
            }
        }
    }

    @DeviceTest
    void inlineFromARegionWhoseMemoryIsFreedIsRefused(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device, QueuePairType.RC, 8192, 64)) {
            Arena arena = Arena.ofShared();
            MemorySegment memory = arena.allocate(4096, 4096);
            try (MemoryRegion region = pair.protectionDomain().register(memory, LOCAL)) {
                SendWorkRequest send = SendWorkRequest.allocate(1).wrId(6).inline(true).sge(region, 0, 32);
                arena.close(); // the region stays registered, the CPU copy would read freed memory
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> pair.first().postSend(send));
                assertMentions(e, "ibv_post_send", "wr_id=6", "arena is closed");
            }
        }
    }

    /**
     * rxe's post_send copies INLINE data with the CPU: from a file mapping whose file was
     * truncated under it, that copy died with SIGBUS and took the JVM along. Both ways of naming
     * such memory are refused before the provider, and the pair still works.
     */
    @DeviceTest
    void inlineFromATruncatedFileMappingIsRefused(TestDevice device) throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("inline-mapping", ".bin");
        try (RcLoopbackPair pair = RcLoopbackPair.open(device, QueuePairType.RC, 8192, 64); Arena arena = Arena.ofShared();
                java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                        java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.allocate(4096));
            MemorySegment mapped = channel.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, 4096, arena);
            try (MemoryRegion region = pair.protectionDomain().register(mapped, LOCAL)) {
                channel.truncate(0); // every page of the mapping is gone: a CPU read of it is SIGBUS
                SendWorkRequest send = SendWorkRequest.allocate(1).wrId(7).inline(true).sge(region, 0, 32);
                assertMentions(assertThrows(IllegalArgumentException.class, () -> pair.first().postSend(send)),
                        "ibv_post_send", "wr_id=7", "file mapping", "SIGBUS");
                assertMentions(assertThrows(IllegalArgumentException.class,
                        () -> SendWorkRequest.allocate(1).inlineData(mapped.asSlice(0, 32))), "file mapping");
            }
            pair.second().postReceive(ReceiveWorkRequest.allocate(1).wrId(1).sge(0, pair.secondBuffer().region(), 0, 64));
            pair.first().postSend(SendWorkRequest.allocate(1).wrId(8).signaled(true).inline(true)
                    .sge(pair.firstBuffer().region(), 0, 32));
            CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
            CompletionWaiter.awaitSuccess(pair.secondQueue(), pair.completions());
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    @DeviceTest
    void inlineFromAnOpenRegionStillWorksAndReleasesTheRegion(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device, QueuePairType.RC, 8192, 64)) {
            RegisteredBuffer source = RegisteredBuffer.allocate(pair.protectionDomain(), 4096);
            source.fillPattern(3, 0, 48);
            pair.second().postReceive(ReceiveWorkRequest.allocate(1).wrId(1).sge(0, pair.secondBuffer().region(), 0, 64));
            pair.first().postSend(SendWorkRequest.allocate(1).wrId(2).signaled(true).inline(true)
                    .sge(source.region(), 0, 48));
            CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
            CompletionWaiter.awaitSuccess(pair.secondQueue(), pair.completions());
            pair.secondBuffer().assertSameBytes(0, source, 0, 48);
            source.close(); // would wait forever if the post had not released the region it held
        }
    }

    @DeviceTest
    void aClosedRegionIsRefusedOnEveryPost(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device, QueuePairType.RC, 8192, 64);
                SharedReceiveQueue srq = pair.protectionDomain().createSharedReceiveQueue(SharedReceiveQueueOptions.of(8, 1))) {
            RegisteredBuffer buffer = RegisteredBuffer.allocate(pair.protectionDomain(), 4096);
            SendWorkRequest send = SendWorkRequest.allocate(1).wrId(11).sge(buffer.region(), 0, 16);
            SendWorkRequest inline = SendWorkRequest.allocate(1).wrId(12).inline(true).sge(buffer.region(), 0, 16);
            ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(1).wrId(13).sge(0, buffer.region(), 0, 16);
            ReceiveWorkRequest chained = ReceiveWorkRequest.allocate(1).wrId(14)
                    .next(ReceiveWorkRequest.allocate(1).wrId(15).sge(0, buffer.region(), 0, 16));
            String region = buffer.region().toString();
            buffer.close();

            assertMentions(assertThrows(IllegalStateException.class, () -> pair.first().postSend(send)),
                    "ibv_post_send", "wr_id=11", region, "closed");
            assertMentions(assertThrows(IllegalStateException.class, () -> pair.first().postSend(inline)),
                    "ibv_post_send", "wr_id=12", "closed");
            assertMentions(assertThrows(IllegalStateException.class, () -> pair.second().postReceive(receive)),
                    "ibv_post_recv", "wr_id=13", region, "closed");
            assertMentions(assertThrows(IllegalStateException.class, () -> srq.postReceive(chained)),
                    "ibv_post_srq_recv", "wr_id=15", region, "closed");
        }
    }

    @DeviceTest
    void aRegionOfAnotherProtectionDomainIsRefused(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
                ProtectionDomain other = pair.context().allocateProtectionDomain();
                RegisteredBuffer foreign = RegisteredBuffer.allocate(other, 4096)) {
            SendWorkRequest send = SendWorkRequest.allocate(1).wrId(21).sge(foreign.region(), 0, 16);
            assertMentions(assertThrows(IllegalArgumentException.class, () -> pair.first().postSend(send)),
                    "ibv_post_send", "wr_id=21", "belongs to");
            ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(1).wrId(22).sge(0, foreign.region(), 0, 16);
            assertMentions(assertThrows(IllegalArgumentException.class, () -> pair.second().postReceive(receive)),
                    "ibv_post_recv", "wr_id=22", "belongs to");
        }
    }

    @DeviceTest
    void aSharedReceiveQueueChecksTheArenaOfEveryChainedRequest(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
                SharedReceiveQueue srq = pair.protectionDomain().createSharedReceiveQueue(SharedReceiveQueueOptions.of(8, 1))) {
            Arena arena = Arena.ofShared();
            ReceiveWorkRequest first = ReceiveWorkRequest.allocate(1).wrId(31).sge(0, pair.secondBuffer().region(), 0, 16);
            ReceiveWorkRequest second = ReceiveWorkRequest.allocate(arena, 1).wrId(32)
                    .sge(0, pair.secondBuffer().region(), 16, 16);
            first.next(second);
            arena.close(); // first's wr->next now points at freed memory
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> srq.postReceive(first));
            assertEquals("ibv_post_srq_recv: the arena of the request with wr_id=32 is closed", e.getMessage());
        }
    }

    @DeviceTest
    void pollingIntoAClosedBatchIsRefused(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            pair.second().postReceive(ReceiveWorkRequest.allocate(1).wrId(41).sge(0, pair.secondBuffer().region(), 0, 64));
            pair.first().postSend(SendWorkRequest.allocate(1).wrId(42).signaled(true).sge(pair.firstBuffer().region(), 0, 64));
            CompletionWaiter.awaitSuccess(pair.secondQueue(), pair.completions());
            Arena arena = Arena.ofShared();
            Completions closed = Completions.allocate(arena, 4);
            arena.close();
            // The send's completion is (or soon will be) waiting: the provider would write it into freed memory.
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> pair.firstQueue().poll(closed));
            assertMentions(e, "ibv_poll_cq", "closed");
            CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions()); // not consumed by the refused poll
        }
    }
}
