package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.DeviceScope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.MemoryWindow;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.values.SendFlag;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;

/**
 * Type 1 memory windows bound with {@code ibv_bind_mw} on an RC queue pair connected to itself:
 * the window's rkey grants exactly the bound range, and unbinding revokes it.
 */
class MemoryWindowDeviceTest {
    private static final long POLL_TIMEOUT_NANOS = 30_000_000_000L; // TCG emulation is slow

    /** Waits for the next completion; fails after the timeout instead of hanging. */
    private static void awaitOne(CompletionQueue cq, Completions batch) throws InterruptedException {
        long deadline = System.nanoTime() + POLL_TIMEOUT_NANOS;
        while (cq.poll(batch, 1) == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no completion within 30 s");
            }
            Thread.sleep(1);
        }
    }

    /** An RC queue pair of {@code pd} connected to itself, ready to post binds. */
    private static QueuePair loopback(Context context, ProtectionDomain pd, CompletionQueue cq, TestDevice device) {
        DeviceCapability.CONNECT_WITHOUT_CM.require(context);
        QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
        GidEntry gid = DeviceScope.sourceGid(context, device);
        qp.toInit(device.port(), EnumSet.of(AccessFlag.REMOTE_READ, AccessFlag.REMOTE_WRITE));
        qp.toRtr(RemoteEndpoint.global(qp.number(), 0, gid.gid(), gid.index(), Mtu.MTU_1024));
        qp.toRts();
        return qp;
    }

    /** Binds {@code window} to the start of {@code region} and waits for the bind's completion. */
    private static void bindAndWait(MemoryWindow window, QueuePair qp, MemoryRegion region, CompletionQueue cq,
            Completions batch, long wrId) throws InterruptedException {
        window.bind(qp, region, 0, 256, EnumSet.of(AccessFlag.REMOTE_READ), wrId, EnumSet.of(SendFlag.SIGNALED));
        awaitOne(cq, batch);
        assertEquals(wrId, batch.wrId(0));
        assertEquals(CompletionStatus.SUCCESS, batch.status(0), "bind completion");
    }

    @DeviceTest
    void closingTheDomainClosesABoundWindowBeforeItsNewerRegion(TestDevice device) throws InterruptedException {
        try (Context context = DeviceScope.openContext(device);
                Arena arena = Arena.ofConfined()) {
            CompletionQueue cq = context.createCompletionQueue(16);
            Completions batch = Completions.allocate(arena, 4);
            ProtectionDomain pd = context.allocateProtectionDomain();
            QueuePair qp = loopback(context, pd, cq, device);
            // Window before region: the domain closes the region first (newest first), which
            // SoftRoCE refuses while the window is bound, unless the region closes the window first.
            MemoryWindow window = pd.allocateMemoryWindow(MemoryWindowType.TYPE_1);
            MemoryRegion region = pd.allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.MW_BIND));
            bindAndWait(window, qp, region, cq, batch, 21);

            pd.close(); // must not throw (ibv_dereg_mr EINVAL would leak the region and the domain)
            assertTrue(window.isClosed(), "window closed");
            assertTrue(region.isClosed(), "region closed");
            assertTrue(qp.isClosed(), "queue pair closed");
            assertTrue(pd.isClosed(), "domain closed");
            // The context is still usable: nothing leaked into a failed state.
            try (ProtectionDomain again = context.allocateProtectionDomain()) {
                again.allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE)).close();
            }
        }
    }

    @DeviceTest
    void closingABoundRegionClosesTheWindowButNotAnUnboundOne(TestDevice device) throws InterruptedException {
        try (DeviceScope scope = DeviceScope.open(device)) {
            CompletionQueue cq = scope.context().createCompletionQueue(16);
            Completions batch = Completions.allocate(scope.arena(), 4);
            QueuePair qp = loopback(scope.context(), scope.pd(), cq, device);
            EnumSet<AccessFlag> bindable = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.MW_BIND);

            // Bound: closing the region closes the window first, and the region deregisters.
            MemoryWindow bound = scope.pd().allocateMemoryWindow(MemoryWindowType.TYPE_1);
            MemoryRegion first = scope.pd().allocateMemoryRegion(4096, bindable);
            bindAndWait(bound, qp, first, cq, batch, 31);
            first.close();
            assertTrue(first.isClosed());
            assertTrue(bound.isClosed(), "a window bound to a closed region is closed with it");
            assertThrows(IllegalStateException.class, bound::rkey);

            // Unbound (after the unbind completed): closing the region leaves the window open and
            // usable; rebinding it elsewhere works.
            MemoryWindow window = scope.pd().allocateMemoryWindow(MemoryWindowType.TYPE_1);
            MemoryRegion second = scope.pd().allocateMemoryRegion(4096, bindable);
            bindAndWait(window, qp, second, cq, batch, 32);
            window.unbind(qp, 33, EnumSet.of(SendFlag.SIGNALED));
            awaitOne(cq, batch);
            assertEquals(CompletionStatus.SUCCESS, batch.status(0), "unbind completion");
            second.close();
            assertFalse(window.isClosed(), "an unbound window outlives the region");
            MemoryRegion third = scope.pd().allocateMemoryRegion(4096, bindable);
            bindAndWait(window, qp, third, cq, batch, 34);

            // Rebound to another region: the earlier one no longer takes the window with it.
            MemoryRegion fourth = scope.pd().allocateMemoryRegion(4096, bindable);
            bindAndWait(window, qp, fourth, cq, batch, 35);
            third.close();
            assertFalse(window.isClosed(), "a window rebound elsewhere outlives its earlier region");
            fourth.close();
            assertTrue(window.isClosed());
        }
    }

    @DeviceTest
    void bindRefusesAQueuePairOrRegionOfAnotherDomain(TestDevice device) {
        try (Context context = DeviceScope.openContext(device);
                ProtectionDomain pd = context.allocateProtectionDomain();
                ProtectionDomain other = context.allocateProtectionDomain()) {
            CompletionQueue cq = context.createCompletionQueue(16);
            EnumSet<AccessFlag> bindable = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.MW_BIND);
            QueuePair qp = loopback(context, pd, cq, device);
            QueuePair foreignQp = loopback(context, other, cq, device);
            MemoryRegion region = pd.allocateMemoryRegion(4096, bindable);
            MemoryRegion foreignRegion = other.allocateMemoryRegion(4096, bindable);
            MemoryWindow window = pd.allocateMemoryWindow(MemoryWindowType.TYPE_1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> window.bind(foreignQp,
                    region, 0, 64, EnumSet.of(AccessFlag.REMOTE_READ), 1, EnumSet.of(SendFlag.SIGNALED)));
            assertTrue(e.getMessage().startsWith("ibv_bind_mw: QueuePair"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> window.bind(qp, foreignRegion, 0, 64,
                    EnumSet.of(AccessFlag.REMOTE_READ), 1, EnumSet.of(SendFlag.SIGNALED)));
            assertTrue(e.getMessage().startsWith("ibv_bind_mw: MemoryRegion"), e.getMessage());
        }
    }

    @DeviceTest
    void boundWindowGrantsItsRangeAndUnbindRevokesIt(TestDevice device) throws InterruptedException {
        try (DeviceScope scope = DeviceScope.open(device)) {
            CompletionQueue cq = scope.context().createCompletionQueue(16);
            DeviceCapability.CONNECT_WITHOUT_CM.require(scope.context());
            QueuePair qp = scope.pd().createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
            GidEntry gid = DeviceScope.sourceGid(scope.context(), device);
            qp.toInit(device.port(), EnumSet.of(AccessFlag.REMOTE_READ, AccessFlag.REMOTE_WRITE));
            qp.toRtr(RemoteEndpoint.global(qp.number(), 0, gid.gid(), gid.index(), Mtu.MTU_1024));
            qp.toRts();

            MemorySegment exposedMemory = scope.arena().allocate(4096, 4096);
            for (int i = 0; i < 4096; i++) {
                exposedMemory.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7));
            }
            MemoryRegion exposed = scope.pd().register(exposedMemory, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.MW_BIND));
            MemoryRegion sink = scope.pd().register(scope.arena().allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
            MemoryWindow window = scope.pd().allocateMemoryWindow(MemoryWindowType.TYPE_1);
            Completions batch = Completions.allocate(scope.arena(), 4);

            int allocatedRkey = window.rkey();
            int rkey = window.bind(qp, exposed, 1024, 2048, EnumSet.of(AccessFlag.REMOTE_READ), 11,
                    EnumSet.of(SendFlag.SIGNALED));
            assertNotEquals(allocatedRkey, rkey, "binding moves the rkey on (ibv_inc_rkey)");
            assertEquals(rkey, window.rkey());
            awaitOne(cq, batch);
            assertEquals(11, batch.wrId(0));
            assertEquals(CompletionStatus.SUCCESS, batch.status(0), "bind completion");
            assertEquals(CompletionOpcode.BIND_MW, batch.opcode(0));

            // RDMA READ through the window: the bytes of the bound range arrive.
            SendWorkRequest read = SendWorkRequest.allocate(scope.arena(), 1).wrId(12).opcode(WorkRequestOpcode.RDMA_READ)
                    .signaled(true).sge(sink, 0, 2048).rdma(exposed.addressAt(1024, 2048), rkey);
            qp.postSend(read);
            awaitOne(cq, batch);
            assertEquals(CompletionStatus.SUCCESS, batch.status(0), "RDMA READ through the window");
            assertEquals(-1L, sink.memory().asSlice(0, 2048).mismatch(exposedMemory.asSlice(1024, 2048)),
                    "the read returned the window's bytes");

            // Bad window use, rejected before the verb.
            assertThrows(IllegalArgumentException.class, () -> window.bind(qp, exposed, 3072, 2048,
                    EnumSet.of(AccessFlag.REMOTE_READ), 13, EnumSet.of(SendFlag.SIGNALED)), "range past the region");
            assertThrows(IllegalArgumentException.class, () -> window.bind(qp, sink, 0, 64,
                    EnumSet.of(AccessFlag.REMOTE_READ), 13, EnumSet.of(SendFlag.SIGNALED)), "region without MW_BIND");
            assertThrows(IllegalArgumentException.class, () -> window.bind(qp, exposed, 0, 64,
                    EnumSet.of(AccessFlag.LOCAL_WRITE), 13, EnumSet.of(SendFlag.SIGNALED)), "LOCAL_WRITE on a window");
            try (MemoryWindow type2 = scope.pd().allocateMemoryWindow(MemoryWindowType.TYPE_2)) {
                assertThrows(IllegalArgumentException.class, () -> type2.bind(qp, exposed, 0, 64,
                        EnumSet.of(AccessFlag.REMOTE_READ), 13, EnumSet.of(SendFlag.SIGNALED)), "type 2 via ibv_bind_mw");
            }

            // Unbind: the old rkey grants nothing any more; the read fails remotely.
            int unboundRkey = window.unbind(qp, 14, EnumSet.of(SendFlag.SIGNALED));
            assertNotEquals(rkey, unboundRkey);
            awaitOne(cq, batch);
            assertEquals(CompletionStatus.SUCCESS, batch.status(0), "unbind completion");
            qp.postSend(read.wrId(15));
            awaitOne(cq, batch);
            assertEquals(15, batch.wrId(0));
            assertTrue(batch.status(0) != CompletionStatus.SUCCESS,
                    "a read with a revoked window rkey must fail, got " + batch.status(0));
        }
    }

    @DeviceTest
    void type2WindowBindsThroughABindMwRequestAndLocalInvRevokesIt(TestDevice device) throws InterruptedException {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
                Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = pair.protectionDomain();
            Completions batch = Completions.allocate(arena, 4);
            MemorySegment exposedMemory = arena.allocate(4096, 4096);
            for (int i = 0; i < 4096; i++) {
                exposedMemory.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 5 + 1));
            }
            MemoryRegion exposed = pd.register(exposedMemory, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.MW_BIND));
            MemoryRegion sink = pd.register(arena.allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
            MemoryWindow window = pd.allocateMemoryWindow(MemoryWindowType.TYPE_2);
            int newRkey = MemoryWindow.incrementRkey(window.rkey());

            // Setter checks, before any post.
            SendWorkRequest bind = SendWorkRequest.allocate(arena, 1).wrId(41).signaled(true);
            try (MemoryWindow type1 = pd.allocateMemoryWindow(MemoryWindowType.TYPE_1)) {
                assertThrows(IllegalArgumentException.class, () -> bind.bindMemoryWindow(type1, type1.rkey(), exposed,
                        0, 64, EnumSet.of(AccessFlag.REMOTE_READ)), "type 1 window");
            }
            assertThrows(IllegalArgumentException.class, () -> bind.bindMemoryWindow(window, newRkey ^ 0x100, exposed,
                    0, 64, EnumSet.of(AccessFlag.REMOTE_READ)), "upper 24 bits changed");
            assertThrows(IllegalArgumentException.class, () -> bind.bindMemoryWindow(window, newRkey, sink, 0, 64,
                    EnumSet.of(AccessFlag.REMOTE_READ)), "region without MW_BIND");
            assertThrows(IllegalArgumentException.class, () -> bind.bindMemoryWindow(window, newRkey, exposed, 3072,
                    2048, EnumSet.of(AccessFlag.REMOTE_READ)), "range past the region");

            // Bind on the first QP: remote accesses through it arrive from the second.
            bind.bindMemoryWindow(window, newRkey, exposed, 1024, 2048, EnumSet.of(AccessFlag.REMOTE_READ));
            assertEquals(WorkRequestOpcode.BIND_MW, bind.opcode());
            pair.first().postSend(bind);
            assertEquals(newRkey, window.rkey(), "the window reports the rkey chosen for the bind");
            awaitOne(pair.firstQueue(), batch);
            assertEquals(41, batch.wrId(0));
            assertEquals(CompletionStatus.SUCCESS, batch.status(0), "BIND_MW completion");
            assertEquals(CompletionOpcode.BIND_MW, batch.opcode(0));

            // A second bind of the bound window is refused before the device (which would fail it
            // and, on SoftRoCE, take tens of seconds to close the context afterwards).
            SendWorkRequest rebind = SendWorkRequest.allocate(arena, 1).wrId(45).signaled(true).bindMemoryWindow(window,
                    MemoryWindow.incrementRkey(newRkey), exposed, 0, 1024, EnumSet.of(AccessFlag.REMOTE_READ));
            IllegalStateException bound = assertThrows(IllegalStateException.class, () -> pair.first().postSend(rebind));
            assertTrue(bound.getMessage().startsWith("ibv_post_send: wr_id=45: BIND_MW names " + window), bound.getMessage());
            assertEquals(newRkey, window.rkey(), "the refused bind changed nothing");

            SendWorkRequest read = SendWorkRequest.allocate(arena, 1).wrId(42).opcode(WorkRequestOpcode.RDMA_READ)
                    .signaled(true).sge(sink, 0, 2048).rdma(exposed.addressAt(1024, 2048), newRkey);
            pair.second().postSend(read);
            awaitOne(pair.secondQueue(), batch);
            assertEquals(CompletionStatus.SUCCESS, batch.status(0), "RDMA READ through the type 2 window");
            assertEquals(-1L, sink.memory().asSlice(0, 2048).mismatch(exposedMemory.asSlice(1024, 2048)),
                    "the read returned the window's bytes");

            // LOCAL_INV of the window's rkey unbinds it: the old rkey grants nothing any more.
            SendWorkRequest invalidate = SendWorkRequest.allocate(arena, 1).wrId(43).signaled(true)
                    .opcode(WorkRequestOpcode.LOCAL_INV).invalidateRkey(newRkey);
            pair.first().postSend(invalidate);
            awaitOne(pair.firstQueue(), batch);
            assertEquals(43, batch.wrId(0));
            assertEquals(CompletionStatus.SUCCESS, batch.status(0), "LOCAL_INV completion");

            // Invalidated by a LOCAL_INV posted here, the window may be bound again (to another range: the
            // old rkey below still grants nothing).
            int thirdRkey = MemoryWindow.incrementRkey(newRkey);
            pair.first().postSend(rebind.bindMemoryWindow(window, thirdRkey, exposed, 0, 1024,
                    EnumSet.of(AccessFlag.REMOTE_READ)));
            awaitOne(pair.firstQueue(), batch);
            assertEquals(45, batch.wrId(0));
            assertEquals(CompletionStatus.SUCCESS, batch.status(0), "BIND_MW after LOCAL_INV");
            assertEquals(thirdRkey, window.rkey());
            pair.second().postSend(read.wrId(44));
            awaitOne(pair.secondQueue(), batch);
            assertEquals(44, batch.wrId(0));
            assertEquals(CompletionStatus.REM_ACCESS_ERR, batch.status(0),
                    "a read with an invalidated window rkey must fail remotely");

            // The window stays a dependent of its last region: closing the region closes it first.
            exposed.close();
            assertTrue(window.isClosed(), "closing the bound region closes the type 2 window");
        }
    }

    /**
     * A type 2 window knows whether it is bound: two binds of it in one chain are refused before
     * the device (nothing posted, still free), and of two threads binding it at once exactly one
     * succeeds, 20 times over; a LOCAL_INV frees it each time. No second bind reaches rxe (which
     * would leave a kernel warning and a close of about 50 s).
     */
    @DeviceTest
    void aType2WindowIsBoundOnceInAChainAndAcrossThreads(TestDevice device) throws Exception {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
                Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = pair.protectionDomain();
            Completions batch = Completions.allocate(arena, 4);
            MemoryRegion exposed = pd.register(arena.allocate(4096, 4096),
                    EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.MW_BIND));
            MemoryWindow window = pd.allocateMemoryWindow(MemoryWindowType.TYPE_2);
            assertFalse(window.isBound());
            int rkey = MemoryWindow.incrementRkey(window.rkey());
            SendWorkRequest first = SendWorkRequest.allocate(arena, 1).wrId(60).signaled(true)
                    .bindMemoryWindow(window, rkey, exposed, 0, 1024, EnumSet.of(AccessFlag.REMOTE_READ));
            SendWorkRequest second = SendWorkRequest.allocate(arena, 1).wrId(61).signaled(true)
                    .bindMemoryWindow(window, rkey, exposed, 1024, 1024, EnumSet.of(AccessFlag.REMOTE_READ));
            first.next(second);
            IllegalStateException chained = assertThrows(IllegalStateException.class, () -> pair.first().postSend(first));
            assertTrue(chained.getMessage().startsWith("ibv_post_send: wr_id=61: BIND_MW names " + window),
                    chained.getMessage());
            assertFalse(window.isBound(), "the refused chain bound nothing");
            assertEquals(0, pair.firstQueue().poll(batch, 4), "the refused chain posted nothing");
            first.next(null);

            for (int round = 0; round < 20; round++) {
                SendWorkRequest[] binds = {first.wrId(100 + 2 * round), second.wrId(101 + 2 * round)};
                java.util.concurrent.CyclicBarrier go = new java.util.concurrent.CyclicBarrier(2);
                java.util.concurrent.atomic.AtomicInteger posted = new java.util.concurrent.atomic.AtomicInteger();
                java.util.concurrent.ConcurrentLinkedQueue<Throwable> unexpected = new java.util.concurrent.ConcurrentLinkedQueue<>();
                Thread[] threads = new Thread[2];
                for (int t = 0; t < 2; t++) {
                    SendWorkRequest mine = binds[t].bindMemoryWindow(window, rkey, exposed, 1024L * t, 1024,
                            EnumSet.of(AccessFlag.REMOTE_READ));
                    threads[t] = Thread.ofPlatform().start(() -> {
                        try {
                            go.await();
                            pair.first().postSend(mine);
                            posted.incrementAndGet();
                        } catch (IllegalStateException refused) {
                            // Its rkey in the message may be before or after the other thread's bind.
                            if (!refused.getMessage().contains("BIND_MW names MemoryWindow[TYPE_2, rkey=")) {
                                unexpected.add(refused);
                            }
                        } catch (Throwable e) {
                            unexpected.add(e);
                        }
                    });
                }
                for (Thread thread : threads) {
                    thread.join(60_000);
                    assertFalse(thread.isAlive(), "a binding thread hangs");
                }
                assertTrue(unexpected.isEmpty(), "round " + round + ": " + unexpected);
                assertEquals(1, posted.get(), "round " + round + ": exactly one of two concurrent binds is posted");
                assertTrue(window.isBound());
                awaitOne(pair.firstQueue(), batch);
                assertEquals(CompletionStatus.SUCCESS, batch.status(0), "round " + round + ": the one bind");
                pair.first().postSend(SendWorkRequest.allocate(arena, 1).wrId(59).signaled(true)
                        .opcode(WorkRequestOpcode.LOCAL_INV).invalidateRkey(rkey));
                assertFalse(window.isBound(), "a posted LOCAL_INV of its rkey frees it");
                awaitOne(pair.firstQueue(), batch);
                assertEquals(CompletionStatus.SUCCESS, batch.status(0), "round " + round + ": LOCAL_INV");
                rkey = MemoryWindow.incrementRkey(rkey);
            }
            assertEquals(0, pair.firstQueue().poll(batch, 4), "no other completion");
        }
    }
}
