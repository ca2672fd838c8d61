package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.onesided.ChannelFailedException;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.RemoteEndpoint;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A one-sided channel whose queue pair's send completion queue has a completion channel: its
 * waits for its own operations park on that channel through the poller (issue 23) once past the
 * spin. Every put lands (the queue pair connected to itself puts into its own window), and a
 * wait for a put nobody answers parks and is woken by the failed completion's event.
 */
class OneSidedPollerDeviceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int PSN = 0x321;
    private static final int SIZE = 64 * 1024;
    private static final int HALF = SIZE / 2;

    @DeviceTest
    void waitsForOwnOperationsParkOnTheCompletionChannelAndEveryPutLands(Context context, TestDevice device) throws Exception {
        try (OnChannel on = OnChannel.open(context);
             QueuePair qp = on.pd().createQueuePair(rcOptions(on.cq(), 16))) {
            CompletionQueue cq = on.cq();
            RegisteredBuffer buffer = on.buffer();
            connectToItself(context, device, qp);
            cq.setEventAckBatch(1 << 20); // keep the events taken countable
            Window window = Window.of(buffer.region());
            RemoteWindow remote = RemoteWindow.open(WindowDescriptor.fromBytes(window.descriptor().toBytes()));
            int rounds = 100;
            CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
                try (OneSidedChannel channel = OneSidedChannel.open(qp)) {
                    for (int i = 1; i <= rounds; i++) {
                        int length = 1 + (i * 7919) % HALF;
                        buffer.fillPattern(i, 0, length);
                        channel.waitLocal(channel.put(remote, HALF, window, 0, length), TIMEOUT);
                        buffer.assertPattern(i, HALF, length);
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }, Executors.newVirtualThreadPerTaskExecutor());
            done.get(rounds * TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            // On one rxe device a loop-back put mostly completes within its post (rxe runs it in
            // the caller's context), so few waits get past the spin: the count is printed only.
            System.out.println("one-sided waits on a completion channel: " + cq.unacknowledgedEvents()
                    + " events taken in " + rounds + " puts");
        }
    }

    /**
     * A put to a queue pair in RESET goes unanswered until its retries run out
     * (about half a second with the default ACK timeout and retry count): the wait spins, parks
     * on the completion channel, and the failed completion's event wakes it; it ends with the
     * status.
     */
    @DeviceTest
    void aWaitParkedOnTheChannelIsWokenByTheFailedCompletion(Context context, TestDevice device) throws Exception {
        try (OnChannel on = OnChannel.open(context);
             QueuePair qp = on.pd().createQueuePair(rcOptions(on.cq(), 16));
             // Left in RESET: rxe drops what arrives for it, so a put to it is never answered (kept
             // open, so its number is not given to the companion the channel creates).
             QueuePair silent = on.pd().createQueuePair(rcOptions(on.cq(), 1))) {
            CompletionQueue cq = on.cq();
            RegisteredBuffer buffer = on.buffer();
            int nobody = silent.number();
            connect(context, device, qp, nobody);
            cq.setEventAckBatch(1 << 20); // keep the events taken countable
            Window window = Window.of(buffer.region());
            RemoteWindow remote = RemoteWindow.open(WindowDescriptor.fromBytes(window.descriptor().toBytes()));
            CompletableFuture<ChannelFailedException> failed = CompletableFuture.supplyAsync(() -> {
                try (OneSidedChannel channel = OneSidedChannel.open(qp)) {
                    long ticket = channel.put(remote, HALF, window, 0, 64);
                    return assertThrows(ChannelFailedException.class, () -> channel.waitLocal(ticket, TIMEOUT));
                }
            }, Executors.newVirtualThreadPerTaskExecutor());
            ChannelFailedException e = failed.get(2 * TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            // Only the channel path arms the CQ: an event raised after the wait's last look (it
            // then found the completion by polling) is taken here, and counts too.
            on.events().awaitEvent(Duration.ZERO);
            int taken = cq.unacknowledgedEvents();
            System.out.println("a put to QP " + nobody + " (in RESET): " + e.status() + "; " + taken + " events taken");
            assertEquals(CompletionStatus.RETRY_EXC_ERR, e.status(), e.getMessage());
            assertTrue(taken > 0, "the wait never armed the CQ nor parked on its completion channel");
        }
    }

    /** RESET, INIT, RTR to its own number, RTS. */
    private static void connectToItself(Context context, TestDevice device, QueuePair qp) {
        connect(context, device, qp, qp.number());
    }

    /** RESET, INIT, RTR to queue pair {@code remote} of this device, RTS (default ACK timeout and retries). */
    private static void connect(Context context, TestDevice device, QueuePair qp, int remote) {
        DeviceCapability.CONNECT_WITHOUT_CM.require(context);
        qp.toInit(device.port(), 0, EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ));
        var mtu = context.queryPort(device.port()).activeMtu();
        var gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
        qp.toRtr(RemoteEndpoint.global(remote, PSN, gid.gid(), device.gidIndex(), mtu));
        qp.toRts(PSN);
    }

    /** An RC queue pair on {@code cq} with room for {@code sends} sends. */
    private static QueuePairOptions rcOptions(CompletionQueue cq, int sends) {
        return QueuePairOptions.builder(QueuePairType.RC, cq)
                .maxSendWorkRequests(sends).maxReceiveWorkRequests(1).maxSendSge(1).maxReceiveSge(1).build();
    }

    /** A protection domain, a completion queue on a completion channel, and a registered buffer the peer may read and write. */
    private record OnChannel(ProtectionDomain pd, CompletionChannel events, CompletionQueue cq, RegisteredBuffer buffer)
            implements AutoCloseable {
        static OnChannel open(Context context) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionChannel events = context.createCompletionChannel();
            CompletionQueue cq = context.createCompletionQueue(64, events, 0);
            return new OnChannel(pd, events, cq, RegisteredBuffer.allocate(pd, SIZE,
                    EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ)));
        }

        @Override
        public void close() {
            try (pd; events; cq; buffer) {
                // closed in reverse: buffer, cq, events, pd (a failed open leaves them to the context's close)
            }
        }
    }
}
