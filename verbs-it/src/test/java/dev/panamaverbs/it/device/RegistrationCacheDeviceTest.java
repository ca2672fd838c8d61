package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.messaging.registration.RegistrationBudget;
import dev.panamaverbs.messaging.registration.RegistrationCache;
import dev.panamaverbs.messaging.registration.RegistrationLease;
import dev.panamaverbs.messaging.registration.RegistrationStatistics;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The messaging layer's {@link RegistrationCache} on the device (issue 24): under a budget smaller
 * than the working set it evicts, never a leased registration, and an RDMA WRITE and a SEND
 * through leased registrations complete while other registrations are evicted; on-demand paging
 * is used or refused as the device offers it. The memory lock limit itself: {@link RegistrationLimitDeviceTest}.
 */
class RegistrationCacheDeviceTest {
    private static final Set<AccessFlag> ACCESS = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE,
            AccessFlag.REMOTE_READ);
    private static final int BUFFER = 64 * 1024;
    private static final int WORKING_SET = 10;
    /** Four buffers: three are leased below, so each other buffer evicts the one before it. */
    private static final long BUDGET = 4L * BUFFER;

    @DeviceTest
    void evictsUnderTheBudgetButNeverALeasedRegistrationAndItsWorkCompletes(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device); Arena arena = Arena.ofShared();
                RegistrationCache cache = RegistrationCache.open(pair.protectionDomain(), ACCESS, RegistrationBudget.ofBytes(BUDGET))) {
            List<MemorySegment> buffers = new ArrayList<>();
            for (int i = 0; i < WORKING_SET; i++) {
                buffers.add(arena.allocate(BUFFER, 4096));
            }
            MemorySegment source = buffers.get(0);
            for (int i = 0; i < BUFFER; i++) {
                source.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, RegisteredBuffer.patternByte(24, i));
            }
            try (RegistrationLease from = cache.acquire(source); RegistrationLease target = cache.acquire(buffers.get(1));
                    RegistrationLease inbox = cache.acquire(buffers.get(2))) {
                MemoryRegion[] leased = {from.region(), target.region(), inbox.region()};
                // RDMA WRITE from one leased registration into another, posted before the churn.
                pair.first().postSend(SendWorkRequest.allocate(1).wrId(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                        .sge(from.region(), from.offset(), BUFFER).rdma(target.address(), target.rkey()));
                churn(cache, buffers);
                CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
                // A SEND into a receive posted on a leased registration, then the churn again.
                pair.second().postReceive(ReceiveWorkRequest.allocate(1).wrId(2).sge(0, inbox.region(), inbox.offset(), BUFFER));
                pair.first().postSend(SendWorkRequest.allocate(1).wrId(3).opcode(WorkRequestOpcode.SEND).signaled(true)
                        .sge(from.region(), from.offset(), BUFFER));
                churn(cache, buffers);
                CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
                CompletionWaiter.awaitSuccess(pair.secondQueue(), pair.completions());
                RegistrationStatistics stats = cache.statistics();
                System.out.println("# RegistrationCacheDeviceTest: " + device.name() + " " + stats);
                for (MemoryRegion region : leased) {
                    assertFalse(region.isClosed(), "a leased registration was evicted: " + region);
                }
                assertEquals(3, stats.leased());
                assertTrue(stats.evictions() >= 2 * (WORKING_SET - 3) - 1, "evictions under the budget: " + stats);
                assertTrue(stats.registeredBytes() <= BUDGET, stats.toString());
                assertEquals(-1L, MemorySegment.mismatch(source, 0, BUFFER, buffers.get(1), 0, BUFFER), "the RDMA WRITE landed");
                assertEquals(-1L, MemorySegment.mismatch(source, 0, BUFFER, buffers.get(2), 0, BUFFER), "the SEND landed");
                // A hit: the source again, and a slice of it.
                try (RegistrationLease again = cache.acquire(source.asSlice(4096, 8192))) {
                    assertEquals(from.region(), again.region());
                    assertEquals(4096, again.offset());
                }
                assertTrue(cache.statistics().hits() >= 1);
            }
            cache.close();
            assertEquals(0, cache.statistics().registrations(), "close deregistered everything");
            assertEquals(0, cache.statistics().registeredBytes());
        }
    }

    /** Every other buffer once, acquired and released: each a miss that evicts under the budget. */
    private static void churn(RegistrationCache cache, List<MemorySegment> buffers) {
        for (int i = 3; i < buffers.size(); i++) {
            try (RegistrationLease lease = cache.acquire(buffers.get(i))) {
                assertTrue(lease.lkey() != 0 || lease.rkey() != 0);
            }
        }
    }

    /**
     * {@code ON_DEMAND}: where the device offers on-demand paging, the cache registers with it and
     * an RDMA WRITE lands in the ODP registration; elsewhere opening the cache is refused, naming
     * the device and the capability. The test prints which held.
     */
    @DeviceTest
    void usesOrRefusesOnDemandPaging(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device); Arena arena = Arena.ofShared()) {
            Context context = pair.context();
            ProtectionDomain pd = pair.protectionDomain();
            boolean odp = context.maxAttributes().extended().map(e -> e.onDemandPaging().supported()).orElse(false);
            EnumSet<AccessFlag> onDemand = EnumSet.copyOf(ACCESS);
            onDemand.add(AccessFlag.ON_DEMAND);
            if (!odp) {
                VerbsUnsupportedException refused = assertThrows(VerbsUnsupportedException.class,
                        () -> RegistrationCache.open(pd, onDemand));
                System.out.println("# RegistrationCacheDeviceTest: " + device.name() + " offers no ODP, refused: " + refused.getMessage());
                assertEquals("ibv_reg_mr", refused.verb());
                assertTrue(refused.getMessage().contains(context.device().name()), refused.getMessage());
                assertTrue(refused.getMessage().contains("IBV_ODP_SUPPORT"), refused.getMessage());
                return;
            }
            try (RegistrationCache cache = RegistrationCache.open(pd, onDemand, RegistrationBudget.ofBytes(BUDGET))) {
                MemorySegment target = arena.allocate(BUFFER, 4096);
                RegisteredBuffer local = pair.firstBuffer().fillPattern(25);
                try (RegistrationLease lease = cache.acquire(target)) {
                    assertTrue(lease.region().access().contains(AccessFlag.ON_DEMAND));
                    pair.first().postSend(SendWorkRequest.allocate(1).wrId(4).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                            .sge(local.region(), 0, 4096).rdma(lease.address(), lease.rkey()));
                    CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
                }
                assertEquals(-1L, MemorySegment.mismatch(local.memory(), 0, 4096, target, 0, 4096), "the write landed");
                System.out.println("# RegistrationCacheDeviceTest: " + device.name() + " uses ODP: " + cache.statistics());
            }
        }
    }
}
