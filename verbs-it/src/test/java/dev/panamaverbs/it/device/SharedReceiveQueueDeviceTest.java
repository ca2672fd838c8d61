package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.DeviceScope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueAttributes;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.util.EnumSet;
import org.junit.jupiter.api.function.Executable;

/** Shared receive queues on a real device: create, query, modify, post, overflow, close (issue 4). */
class SharedReceiveQueueDeviceTest {

    @DeviceTest
    void createsQueriesAndArmsTheLimit(TestDevice device) {
        try (Context context = DeviceScope.openContext(device);
                ProtectionDomain pd = context.allocateProtectionDomain()) {
            SharedReceiveQueue srq = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(64, 2).withLimit(8));
            assertSame(pd, srq.protectionDomain());
            SharedReceiveQueueAttributes attributes = srq.query();
            assertTrue(attributes.maxWorkRequests() >= 64, attributes.toString());
            assertTrue(attributes.maxSge() >= 2, attributes.toString());
            assertEquals(8, attributes.limit(), "armed at creation");
            assertEquals(attributes.maxWorkRequests(), srq.maxWorkRequests());
            assertTrue(srq.maxSge() >= 2);

            srq.setLimit(4);
            assertEquals(4, srq.query().limit());
            assertThrows(IllegalArgumentException.class, () -> srq.setLimit(srq.maxWorkRequests() + 1));
            assertThrows(IllegalArgumentException.class, () -> srq.setLimit(-1));
        }
    }

    @DeviceTest
    void resizesWhereTheProviderCan(TestDevice device) {
        try (Context context = DeviceScope.openContext(device);
                ProtectionDomain pd = context.allocateProtectionDomain()) {
            SharedReceiveQueue srq = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(16, 1));
            srq.resize(256); // VerbsUnsupportedException -> skipped by the testkit
            assertTrue(srq.maxWorkRequests() >= 256, "max_wr after resize " + srq.maxWorkRequests());
            assertEquals(srq.maxWorkRequests(), srq.query().maxWorkRequests());
            int deviceMax = context.maxAttributes().maxSrqWr();
            IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class, () -> srq.resize(deviceMax + 1));
            assertTrue(tooBig.getMessage().startsWith("ibv_modify_srq: max_wr must be in 1.." + deviceMax),
                    tooBig.getMessage());
        }
    }

    @DeviceTest
    void rejectsSizesBeyondTheDevice(TestDevice device) {
        try (Context context = DeviceScope.openContext(device);
                ProtectionDomain pd = context.allocateProtectionDomain()) {
            int maxWr = context.maxAttributes().maxSrqWr();
            int maxSge = context.maxAttributes().maxSrqSge();
            IllegalArgumentException wr = assertThrows(IllegalArgumentException.class,
                    () -> pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(maxWr + 1, 1)));
            assertEquals("ibv_create_srq: max_wr must be in 1.." + maxWr + " (device max_srq_wr), got " + (maxWr + 1),
                    wr.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(4, maxSge + 1)));
        }
    }

    @DeviceTest
    void postsUntilFullAndNamesTheRefusedRequest(TestDevice device) {
        try (DeviceScope scope = DeviceScope.open(device)) {
            MemoryRegion mr = scope.pd().register(scope.arena().allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
            SharedReceiveQueue srq = scope.pd().createSharedReceiveQueue(SharedReceiveQueueOptions.of(8, 1));
            int capacity = srq.maxWorkRequests();

            ReceiveWorkRequest request = ReceiveWorkRequest.allocate(scope.arena(), 2);
            request.sge(0, mr, 0, 256);
            assertEquals(1, request.sgeCount());
            assertThrows(IllegalArgumentException.class, () -> request.sge(0, mr, 4000, 200), "range past the MR");

            ReceiveWorkRequest twoEntries = ReceiveWorkRequest.allocate(scope.arena(), 2).sge(0, mr, 0, 8).sge(1, mr, 8, 8);
            if (srq.maxSge() < 2) {
                IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
                        () -> srq.postReceive(twoEntries));
                assertTrue(tooMany.getMessage().startsWith("ibv_post_srq_recv: "), tooMany.getMessage());
            }

            // One chained post of two, then singles until the provider refuses (queue full).
            ReceiveWorkRequest second = ReceiveWorkRequest.allocate(scope.arena(), 1).wrId(1).sge(0, mr, 256, 256);
            request.wrId(0).next(second);
            srq.postReceive(request);
            request.next(null);
            int posted = 2;
            VerbsException full = null;
            while (posted <= 4 * capacity + 16) { // providers may round the ring up
                request.wrId(1000 + posted);
                try {
                    srq.postReceive(request);
                    posted++;
                } catch (VerbsException e) {
                    full = e;
                    break;
                }
            }
            if (full == null) {
                fail("posted " + posted + " receives to an SRQ of max_wr " + capacity + " without refusal");
            }
            assertTrue(posted >= capacity, "posted " + posted + " of max_wr " + capacity);
            assertEquals("ibv_post_srq_recv", full.verb());
            assertTrue(full.getMessage().contains("bad_wr wr_id=" + (1000 + posted)), full.getMessage());

            srq.close();
            IllegalStateException closed = assertThrows(IllegalStateException.class, () -> srq.postReceive(request));
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
            assertThrows(IllegalStateException.class, srq::query);
        }
    }

    @DeviceTest
    void closingTheProtectionDomainClosesTheQueue(TestDevice device) {
        try (Context context = DeviceScope.openContext(device)) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            SharedReceiveQueue srq = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(4, 1));
            pd.close(); // ibv_dealloc_pd would fail with EBUSY if the SRQ were left
            assertTrue(srq.isClosed());
            assertThrows(IllegalStateException.class, () -> srq.setLimit(1));
        }
    }

    /**
     * Every SRQ method after close throws IllegalStateException naming the SRQ, before any native
     * call (a destroyed ibv_srq would be a use-after-free in the provider); close stays idempotent
     * and a closed SRQ cannot be attached to a new queue pair.
     */
    @SuppressWarnings("try") // closes inside its own try on purpose
    @DeviceTest
    void everyUseAfterCloseThrowsBeforeNativeCode(TestDevice device) {
        try (DeviceScope scope = DeviceScope.open(device)) {
            MemoryRegion mr = scope.pd().register(scope.arena().allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
            SharedReceiveQueue srq = scope.pd().createSharedReceiveQueue(SharedReceiveQueueOptions.of(8, 1));
            ReceiveWorkRequest request = ReceiveWorkRequest.allocate(scope.arena(), 1).wrId(7).sge(0, mr, 0, 64);
            srq.postReceive(request); // works while open
            String name = srq.toString();
            srq.close();
            srq.close();
            assertTrue(srq.isClosed());
            assertFalse(scope.pd().isClosed(), "closing the SRQ leaves its PD");
            assertClosedSrq(name, "postReceive", () -> srq.postReceive(request));
            assertClosedSrq(name, "query", srq::query);
            assertClosedSrq(name, "resize", () -> srq.resize(16));
            assertClosedSrq(name, "setLimit", () -> srq.setLimit(1));
            assertClosedSrq(name, "handle", srq::handle);
            CompletionQueue cq = scope.context().createCompletionQueue(4);
            assertClosedSrq(name, "createQueuePair with the SRQ", () -> scope.pd().createQueuePair(
                    QueuePairOptions.builder(QueuePairType.RC, cq).sharedReceiveQueue(srq).build()));
            // The PD is still usable: a fresh SRQ works.
            SharedReceiveQueue fresh = scope.pd().createSharedReceiveQueue(SharedReceiveQueueOptions.of(8, 1));
            fresh.postReceive(request);
            assertTrue(fresh.query().maxWorkRequests() >= 8);
        }
    }

    private static void assertClosedSrq(String name, String what, Executable use) {
        IllegalStateException e = assertThrows(IllegalStateException.class, use, what);
        assertEquals(name + " is closed", e.getMessage(), what);
    }
}
