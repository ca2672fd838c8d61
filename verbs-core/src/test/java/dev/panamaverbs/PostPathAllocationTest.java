package dev.panamaverbs;

import dev.panamaverbs.internal.QueuePairTransitions;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.WorkRequestOpcode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Java side of the post and poll paths without a device: what {@link QueuePair#postSend},
 * {@link QueuePair#postReceive} and {@link CompletionQueue#poll} run around the downcall (setting
 * wr_id, walking and checking a chain, the state check, acquire/release, the bad-request slot,
 * reading every completion field) allocates nothing per call, measured as this thread's allocated
 * bytes. Surefire runs this class three times (verbs-core/pom.xml): with {@code -Xint} and with C1
 * only, where no escape analysis hides a temporary object and the bytes must be exactly 0; and in
 * the ordinary fork, where less than one byte per call is required: when the JVM asks C2 to compile
 * a method, the asking thread first resolves every string constant of the method's class and loads
 * the classes its signature names ({@code CompileBroker::compile_method}), a one-off per class
 * that may fall in the measured window. The device test {@code DataPathAllocationDeviceTest}
 * (verbs-testkit) measures the whole public path on a device.
 */
class PostPathAllocationTest {
    /** Past C2's compile thresholds, so its one-off compile requests mostly come before the measuring. */
    private static final int WARM_UP = 20_000;
    private static final int CALLS = 10_000;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** Interpreted or C1 only: no C2, so not a byte may be allocated. */
    private static final boolean EXACT = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .anyMatch(option -> option.equals("-Xint") || option.equals("-XX:TieredStopAtLevel=1"));

    /** Where results go, so no call is dead code. */
    static long sink;

    private static Arena arena;

    interface Call {
        void run(long i);
    }

    @BeforeAll
    static void meter() {
        assertTrue(THREADS.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        THREADS.setThreadAllocatedMemoryEnabled(true);
        arena = Arena.ofShared();
        // Loaded by any program that has a queue pair; loading one in the window reads its class file.
        sink += ProtectionDomain.class.getName().length() + MemoryRegion.class.getName().length()
                + AddressHandle.class.getName().length() + MemoryWindow.class.getName().length();
    }

    @AfterAll
    static void close() {
        arena.close();
    }

    @Test
    void theMeterAloneAllocatesNothing() {
        assertEquals(0, allocatedBy(i -> { }));
    }

    @Test
    void theMeterSeesAnAllocationPerCall() {
        ArrayList<Object> kept = new ArrayList<>(WARM_UP + CALLS);
        long bytes = allocatedBy(i -> kept.add(new Object()));
        assertTrue(bytes >= 16L * CALLS, "an object per call should be counted, got " + bytes + " B for " + CALLS);
    }

    @Test
    void aSendChainIsFilledAndCheckedWithoutAllocating() {
        SendWorkRequest last = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .rdma(0x1000, 7);
        SendWorkRequest head = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.RDMA_WRITE).rdma(0x2000, 7)
                .next(SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.SEND).next(last));
        int rc = SendOperations.allowedBits(QueuePairType.RC);
        SendWorkRequest add = SendWorkRequest.allocate(arena, 1);
        assertNothingAllocated("the wr union's setters", i -> {
            last.rdma(0x1000 + 8 * (i & 7), 7);
            add.atomicFetchAndAdd(0x2000 + 8 * (i & 7), 9, i).atomicCompareAndSwap(0x2000, 9, i, i + 1);
        });
        SendPath path = SendPath.limits(QueuePairType.RC, 1, 0, 1, null);
        assertNothingAllocated("wrId + SendPath.check + the bad-request slot", i -> {
            last.wrId(i);
            QueuePairTransitions.requirePostable(SendWorkRequest.VERB, true, head, QueuePairState.RTS);
            sink += path.check(head) ? 1 : 0;
            head.clearBadRequest();
            sink += head.badRequestAddress() + (head.isAlive() ? 1 : 0);
        });
    }

    @Test
    void anInlineSendIsFilledAndCheckedWithoutAllocating() {
        MemorySegment bytes = arena.allocate(64);
        SendWorkRequest send = SendWorkRequest.allocate(arena, 2).opcode(WorkRequestOpcode.SEND_WITH_IMM)
                .immediateData(5).signaled(true).inlineData(0, bytes.asSlice(0, 16)).inlineData(1, bytes.asSlice(32, 16));
        int rc = SendOperations.allowedBits(QueuePairType.RC);
        MemorySegment first = bytes.asSlice(0, 16);
        MemorySegment second = bytes.asSlice(32, 16);
        assertNothingAllocated("inline setters", i -> {
            send.inlineData(0, first).inlineData(1, second).immediateData((int) i).sgeCount(2);
        });
        SendPath path = SendPath.limits(QueuePairType.RC, 2, 64, 1, null);
        assertNothingAllocated("inline SendPath.check", i -> {
            sink += path.check(send.wrId(i)) ? 1 : 0;
        });
    }

    @Test
    void aReceiveChainIsSetAndCheckedWithoutAllocating() {
        ReceiveWorkRequest second = ReceiveWorkRequest.allocate(arena, 1);
        ReceiveWorkRequest head = ReceiveWorkRequest.allocate(arena, 1).next(second);
        assertNothingAllocated("wrId + checkReceiveChain", i -> {
            head.wrId(i);
            second.wrId(i + 1);
            QueuePairTransitions.requirePostable(ReceiveWorkRequest.VERB, false, head, QueuePairState.RTS);
            WorkRequestChecks.checkReceiveChain(ReceiveWorkRequest.VERB, head, 1, "max_recv_sge", null);
            head.clearBadRequest();
        });
    }

    @Test
    void acquireAndReleaseAllocateNothing() {
        FakeResource resource = FakeResource.open("qp", new ArrayList<>());
        assertNothingAllocated("acquire/release", i -> {
            resource.acquire();
            resource.release();
        });
        resource.close();
    }

    /** A batch's holds: the posting thread takes a request, names it again, gives it back. */
    @Test
    void aRequestIsTakenTwiceByOneThreadAndGivenBackWithoutAllocating() {
        SendWorkRequest request = SendWorkRequest.allocate(arena, 1).wrId(9);
        assertNothingAllocated("acquireOne twice/releaseOne", i -> {
            boolean first = ChainHolds.acquireOne(request);
            boolean again = ChainHolds.acquireOne(request);
            ChainHolds.releaseOne(request);
            sink += (first ? 1 : 0) + (again ? 2 : 0);
        });
    }

    @Test
    void everyCompletionFieldIsReadWithoutAllocating() {
        Completions batch = Completions.allocate(arena, 4);
        assertNothingAllocated("Completions getters", i -> {
            int k = (int) (i & 3);
            batch.throwIfFailed(k);
            CompletionOpcode opcode = batch.opcode(k);
            sink += batch.wrId(k) + batch.statusValue(k) + batch.status(k).ordinal() + batch.opcodeValue(k)
                    + (opcode == null ? -1 : opcode.ordinal()) + batch.byteLength(k) + batch.immediateData(k)
                    + batch.immediateDataHostOrder(k) + batch.qpNumber(k) + batch.sourceQp(k) + batch.flags(k)
                    + (batch.hasFlag(k, CompletionFlag.WITH_IMM) ? 1 : 0) + (batch.isSuccess(k) ? 1 : 0)
                    + batch.vendorError(k) + batch.invalidatedRkey(k) + batch.pkeyIndex(k) + batch.slid(k)
                    + batch.sl(k) + batch.dlidPathBits(k) + batch.completionTimestamp(k)
                    + batch.completionWallclockNanos(k) + batch.flowTag(k) + (batch.isAlive() ? 1 : 0);
        });
    }

    /**
     * What poll runs for the JFR event {@code dev.panamaverbs.FailedCompletion} with no recording:
     * a scan of the statuses and, for a failed entry, one enabled test of the event type, never
     * an event object (this fork records nothing).
     */
    @Test
    void failedCompletionsAreNotRecordedWithoutAllocatingWhenRecordingIsOff() {
        Completions batch = Completions.allocate(arena, 4);
        for (int k = 0; k < 4; k++) {
            int status = k % 2 == 0 ? CompletionStatus.RNR_RETRY_EXC_ERR.value() : CompletionStatus.SUCCESS.value();
            batch.segment().set(java.lang.foreign.ValueLayout.JAVA_INT,
                    k * dev.panamaverbs.ffm.ibv_wc.LAYOUT.byteSize() + dev.panamaverbs.ffm.ibv_wc.status$OFFSET, status);
        }
        assertNothingAllocated("Completions.recordFailures with recording off", i -> batch.recordFailures("rxe0", 4));
    }

    private static void assertNothingAllocated(String what, Call call) {
        long bytes = allocatedBy(call);
        if (EXACT) {
            assertEquals(0, bytes, what + " allocated " + bytes + " B over " + CALLS + " calls");
        } else {
            assertTrue(bytes < CALLS, what + " allocated " + bytes + " B over " + CALLS + " calls");
        }
    }

    /** Bytes this thread allocated over {@link #CALLS} calls, after {@link #WARM_UP} of the same. */
    private static long allocatedBy(Call call) {
        for (int i = 0; i < WARM_UP; i++) {
            call.run(i);
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            call.run(i);
        }
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }
}
