package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
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
 * spin, and every put still lands. The queue pair is connected to itself, so the channel puts
 * into its own window.
 */
class OneSidedPollerDeviceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int PSN = 0x321;
    private static final int SIZE = 64 * 1024;
    private static final int HALF = SIZE / 2;

    @DeviceTest
    void waitsForOwnOperationsParkOnTheCompletionChannelAndEveryPutLands(Context context, TestDevice device) throws Exception {
        try (ProtectionDomain pd = context.allocateProtectionDomain();
             CompletionChannel events = context.createCompletionChannel();
             CompletionQueue cq = context.createCompletionQueue(64, events, 0);
             QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq)
                     .maxSendWorkRequests(16).maxReceiveWorkRequests(1).maxSendSge(1).maxReceiveSge(1).build());
             RegisteredBuffer buffer = RegisteredBuffer.allocate(pd, SIZE,
                     EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ))) {
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
            int events0 = cq.unacknowledgedEvents();
            System.out.println("one-sided waits on a completion channel: " + events0 + " events in " + rounds + " puts");
            assertTrue(events0 > 0, "no wait parked on the completion channel (under emulation a put outlasts the spin)");
            assertEquals(events0, cq.acknowledgeEvents());
        }
    }

    /** RESET, INIT, RTR to its own number, RTS. */
    private static void connectToItself(Context context, TestDevice device, QueuePair qp) {
        qp.toInit(device.port(), 0, EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ));
        var mtu = context.queryPort(device.port()).activeMtu();
        var gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
        qp.toRtr(RemoteEndpoint.global(qp.number(), PSN, gid.gid(), device.gidIndex(), mtu));
        qp.toRts(PSN);
    }
}
