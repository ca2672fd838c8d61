package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.MemoryWindow;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.function.Consumer;

/**
 * The two opcodes {@code QueuePair.postSend} accepts that no other device test posts through
 * {@code ibv_post_send}: SEND_WITH_INV and ATOMIC_WRITE (the table in docs/verb-coverage.md).
 */
class PostSendOpcodesDeviceTest {

    /** 4 KiB registered for binding windows to (LOCAL_WRITE, MW_BIND), byte i holding {@code i * multiplier + offset}. */
    static MemoryRegion windowTarget(ProtectionDomain pd, Arena arena, int multiplier, int offset) {
        MemorySegment memory = arena.allocate(4096, 4096);
        for (int i = 0; i < 4096; i++) {
            memory.set(ValueLayout.JAVA_BYTE, i, (byte) (i * multiplier + offset));
        }
        return pd.register(memory, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.MW_BIND));
    }

    /**
     * A SEND_WITH_INV of 16 bytes of {@code sink} ({@code sendId}, posted by {@code post} on the
     * pair's first queue pair) into a receive ({@code receiveId}) on the second, invalidating
     * {@code rkey}: waits for both completions, checks their ids and prints the receive's flags.
     */
    static void sendWithInvalidate(RcLoopbackPair pair, Arena arena, Completions wc, long receiveId, long sendId, int rkey,
            MemoryRegion sink, Consumer<SendWorkRequest> post, String test) {
        pair.second().postReceive(ReceiveWorkRequest.allocate(arena, 1).wrId(receiveId)
                .sge(0, pair.secondBuffer().region(), 0, 64));
        post.accept(SendWorkRequest.allocate(arena, 1).wrId(sendId).signaled(true)
                .opcode(WorkRequestOpcode.SEND_WITH_INV).invalidateRkey(rkey).sge(sink, 2048, 16));
        CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
        assertEquals(sendId, wc.wrId(0));
        CompletionWaiter.awaitSuccess(pair.secondQueue(), wc);
        assertEquals(receiveId, wc.wrId(0));
        System.out.println("# " + test + ": SEND_WITH_INV receive flags " + wc.flags(0)
                + ", invalidated rkey " + wc.invalidatedRkey(0));
    }

    /** SEND_WITH_INV invalidates the peer's type 2 window: a read through it works before, fails after. */
    @DeviceTest
    void sendWithInvalidateInvalidatesThePeersWindow(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device); Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = pair.protectionDomain();
            MemoryRegion exposed = windowTarget(pd, arena, 5, 1);
            MemorySegment exposedMemory = exposed.memory();
            MemoryRegion sink = pair.firstBuffer().region();
            Completions wc = Completions.allocate(arena, 1);

            MemoryWindow window = pd.allocateMemoryWindow(MemoryWindowType.TYPE_2);
            int rkey = MemoryWindow.incrementRkey(window.rkey());
            pair.second().postSend(SendWorkRequest.allocate(arena, 1).wrId(1).signaled(true)
                    .bindMemoryWindow(window, rkey, exposed, 0, 4096, EnumSet.of(AccessFlag.REMOTE_READ)));
            CompletionWaiter.awaitSuccess(pair.secondQueue(), wc);
            SendWorkRequest read = SendWorkRequest.allocate(arena, 1).wrId(2).signaled(true)
                    .opcode(WorkRequestOpcode.RDMA_READ).sge(sink, 0, 1024).rdma(exposed.iova() + 1024, rkey);
            pair.first().postSend(read);
            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(-1L, sink.memory().asSlice(0, 1024).mismatch(exposedMemory.asSlice(1024, 1024)));

            sendWithInvalidate(pair, arena, wc, 3, 4, rkey, sink, wr -> pair.first().postSend(wr), "PostSendOpcodesDeviceTest");

            pair.first().postSend(read.wrId(5));
            CompletionWaiter.await(pair.firstQueue(), wc, 1, CompletionWaiter.DEFAULT_TIMEOUT);
            assertEquals(5, wc.wrId(0));
            assertEquals(CompletionStatus.REM_ACCESS_ERR, wc.status(0), "a read through the invalidated window");
        }
    }

    /**
     * ATOMIC_WRITE through ibv_post_send: the provider refuses the post, or the write lands, or it
     * completes with an error and leaves the target untouched. Prints which one this device did.
     */
    @DeviceTest
    void atomicWriteLandsOrIsRefused(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device); Arena arena = Arena.ofConfined()) {
            RegisteredBuffer source = pair.firstBuffer();
            source.putLong(0, 0x0102_0304_0506_0708L);
            pair.secondBuffer().putLong(64, 0);
            MemoryRegion target = pair.secondBuffer().region();
            SendWorkRequest write = SendWorkRequest.allocate(arena, 1).wrId(1).signaled(true)
                    .opcode(WorkRequestOpcode.ATOMIC_WRITE).sge(source.region(), 0, 8)
                    .rdma(target.iova() + 64, target.rkey());
            try {
                pair.first().postSend(write);
            } catch (VerbsException refused) {
                System.out.println("# PostSendOpcodesDeviceTest: " + device.name() + " refuses the ATOMIC_WRITE post: "
                        + refused.getMessage());
                assertEquals("ibv_post_send", refused.verb());
                return;
            }
            Completions wc = Completions.allocate(arena, 1);
            CompletionWaiter.await(pair.firstQueue(), wc, 1, CompletionWaiter.DEFAULT_TIMEOUT);
            System.out.println("# PostSendOpcodesDeviceTest: " + device.name() + " ATOMIC_WRITE completed with "
                    + wc.status(0));
            assertEquals(1, wc.wrId(0));
            assertEquals(wc.isSuccess(0) ? 0x0102_0304_0506_0708L : 0L, pair.secondBuffer().getLong(64),
                    "a write that completed lands; one that failed writes nothing");
        }
    }
}
