package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.PeerHost;
import dev.panamaverbs.it.support.PeerPairing;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerPairing.Peer;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.onesided.RemoteSlot;
import dev.panamaverbs.onesided.SignalSlot;
import dev.panamaverbs.onesided.WaitTimeoutException;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.values.PortCounters;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The rxe behaviours docs/ records on Linux 6.1 (a retry count of 7, fenced chains, 64 KiB latency
 * runs, SENDs against a slow receiver) and two that 6.12 showed (one operation at a time under
 * three kinds of wait, a bad rkey on a queue pair looped back to itself), each as a bounded probe
 * on one device whose outcome is printed with the kernel release, for the table of differences
 * between 6.1 and 6.12 (issue 26, docs/kernel-6.12.md):
 * {@code rxe probe on <release>: <behaviour>: <outcome>}. A probe
 * fails only where its control, its own bound or the data it moved is wrong, never on the outcome
 * it records: that outcome is the finding, and a stall may come in one run of a kernel and not
 * in the next. SoftRoCE only ({@code vendor_id}); elsewhere the tests are skipped.
 */
class RxeKernelDifferencesDeviceTest {
    /** How long a probe waits for an outcome that a bounded rxe reaches in well under a second. */
    private static final Duration BOUND = Duration.ofSeconds(20);
    /** No progress for this long counts as a stall. */
    private static final Duration STALL = Duration.ofSeconds(15);
    private static final int DATA = 4096;
    /** The bound of the slow receiver's whole run, whether it stalls or only trickles. */
    private static final Duration SLOW_RECEIVER_BOUND = Duration.ofSeconds(180);

    /**
     * {@code retry_cnt} 7 against a peer that no longer answers (its queue pair back in RESET: rxe
     * drops what reaches it). The control, retry count 6 (the library's default), must fail the
     * WRITE with RETRY_EXC_ERR after 7 ACK timeouts of 67 ms; with 7 the IB spec bounds it too (8
     * timeouts, 0.54 s), but 6.1's rxe retries for ever. The probe gives 7 {@link #BOUND}.
     */
    @DeviceTest
    void retryCount7AgainstAPeerThatNoLongerAnswers(TestDevice device) throws InterruptedException {
        OptionalLong six = writeToADeadPeer(device, 6);
        assertTrue(six.isPresent(), "retry count 6: the WRITE to a dead peer did not fail within " + BOUND);
        OptionalLong seven = writeToADeadPeer(device, 7);
        record("retry_cnt 7 against a dead peer", (seven.isPresent() ? "RETRY_EXC_ERR after " + seven.getAsLong() + " ms"
                : "no completion within " + BOUND.toSeconds() + " s (retries for ever)") + "; retry_cnt 6: RETRY_EXC_ERR after "
                + six.getAsLong() + " ms");
    }

    /** Milliseconds until a WRITE to a peer in RESET failed, or empty when it had not completed within {@link #BOUND}. */
    private static OptionalLong writeToADeadPeer(TestDevice device, int retryCount) throws InterruptedException {
        try (RcLoopbackPair pair = RcLoopbackPair.openWithRetryCount(device, retryCount)) {
            requireRxe(pair.context());
            pair.second().toReset();
            long start = System.nanoTime();
            RegisteredBuffer target = pair.secondBuffer();
            pair.first().postSend(SendWorkRequest.allocate(1).wrId(retryCount).opcode(WorkRequestOpcode.RDMA_WRITE)
                    .signaled(true).sge(pair.firstBuffer().region(), 0, 64).rdma(target.deviceAddress(0), target.region().rkey()));
            if (!pollOne(pair.firstQueue(), pair.completions(), start + BOUND.toNanos())) {
                return OptionalLong.empty();
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(CompletionStatus.RETRY_EXC_ERR, pair.completions().status(0), "retry count " + retryCount);
            return OptionalLong.of(millis);
        }
    }

    /**
     * Fenced chains between two queue pairs of one device: the stream of {@code OneSidedDeviceTest}
     * (1,000 {@code putWithSignalAndCounter}, each waited for before the next), with
     * {@code IBV_SEND_FENCE} on the signal. On 6.1 such streams stalled after about a hundred, which
     * is why that test streams unfenced. Every put whose signal arrived is checked byte for byte.
     */
    @DeviceTest
    void fencedChainsBetweenTwoQueuePairsOfOneDevice(TestDevice device) throws InterruptedException {
        int chains = 1000;
        try (OneSidedSides s = OneSidedSides.open(device)) {
            requireRxe(s.pair().context());
            SignalSlot arrived = s.target().slot(8);
            RemoteSlot arrivedRemote = s.remote().slot(8);
            SignalSlot counter = s.source().slot(0);
            long start = System.nanoTime();
            int done = 0;
            for (int i = 1; i <= chains; i++) {
                int length = 1 + (i * 7919) % 2000;
                int at = DATA + (i % 8) * 2048;
                s.pair().firstBuffer().fillPattern(i, at, length);
                s.sender().putWithSignalAndCounter(s.remote(), at, s.source(), at, length, arrivedRemote, 1, counter, true);
                try {
                    assertEquals(i, s.receiver().waitSignal(arrived, i, STALL), "one add per put");
                } catch (WaitTimeoutException stalled) {
                    break;
                }
                s.pair().secondBuffer().assertPattern(i, at, length);
                done = i;
            }
            record("fenced chains between two queue pairs of one device", done == chains
                    ? "all " + chains + " completed in " + secondsSince(start) + " s"
                    : "stalled after " + done + " of " + chains + " (no signal within " + STALL.toSeconds() + " s)");
        }
    }

    /**
     * 64 KiB latency runs with a C side: Debian's {@code ib_write_lat} and {@code ib_send_lat}, server
     * and client on this one device, 200 iterations of 64 KiB (64 packets at MTU 1024). In the
     * perftest sweep on 6.1 such a run (across the two VMs) sometimes never ended. Each run gets 120 s.
     */
    @DeviceTest
    void latencyRunsOf64KibWithTheCTools(TestDevice device, Context context) throws InterruptedException {
        requireRxe(context);
        PeerHost here = new PeerHost.Local(RdmaCmSupport.deviceAddress(device), device);
        List<String> outcomes = new ArrayList<>();
        int port = 18731;
        for (String tool : List.of("ib_write_lat", "ib_send_lat")) {
            List<String> server = List.of("-d", device.name(), "-x", here.gidIndexArgument(), "-F", "-p",
                    Integer.toString(port), "-s", "65536", "-n", "200");
            List<String> client = new ArrayList<>(server);
            client.add(here.address().getHostAddress());
            long start = System.nanoTime();
            String outcome;
            try {
                PeerPairing.run(new Peer(here, tool + " server", InteropPeers.c(tool, "perftest", server)), Listening.TCP, port,
                        new Peer(here, tool + " client", InteropPeers.c(tool, "perftest", client)), Duration.ofSeconds(120));
                outcome = "ended in " + secondsSince(start) + " s";
            } catch (AssertionError notEnded) { // PeerPairing's report of a hang, a refusal or a non-zero exit
                outcome = "did not end: " + notEnded.getMessage().lines().findFirst().orElse("?");
            }
            outcomes.add(tool + " " + outcome);
            port++;
        }
        record("64 KiB latency runs, C server and client", String.join("; ", outcomes));
    }

    /**
     * SENDs against a slow receiver: 1,000 32-byte SENDs (16 in flight, RNR retry 7, the default)
     * to a receiver that posts one receive at a time, 2 ms after the last message arrived, so most
     * SENDs meet a "receiver not ready" NAK. A C client's SENDs to our slower-to-repost server
     * stalled on 6.1 (perftest sweep); rxe's RNR retry was the suspect. Every message is checked
     * to arrive in order.
     */
    @DeviceTest
    void sendsAgainstASlowReceiver(TestDevice device) throws InterruptedException {
        int messages = 1000;
        int inFlight = 16;
        int size = 32;
        long gap = TimeUnit.MILLISECONDS.toNanos(2);
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            requireRxe(pair.context());
            PortCounters before = pair.context().portCounters(device.port());
            Completions wc = pair.completions();
            SendWorkRequest send = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.SEND).signaled(true);
            ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(1);
            int sent = 0;
            int sendsDone = 0;
            int posted = 0;
            int received = 0;
            String failure = null;
            long start = System.nanoTime();
            long lastProgress = start;
            long nextRepost = start;
            while (received < messages && failure == null) {
                while (sent < messages && sent - sendsDone < inFlight) {
                    pair.firstBuffer().putLong((long) (sent % inFlight) * size, sent);
                    pair.first().postSend(send.wrId(sent).sge(pair.firstBuffer().region(), (long) (sent % inFlight) * size, size));
                    sent++;
                }
                for (int n = pair.firstQueue().poll(wc), i = 0; i < n; i++, sendsDone++) {
                    if (!wc.isSuccess(i)) {
                        failure = "SEND " + wc.wrId(i) + " failed with " + wc.status(i);
                    }
                }
                long now = System.nanoTime();
                if (posted == received && posted < messages && now - nextRepost >= 0) {
                    pair.second().postReceive(receive.wrId(posted).sge(0, pair.secondBuffer().region(), 0, size));
                    posted++;
                }
                if (pair.secondQueue().poll(wc) == 1) {
                    assertTrue(wc.isSuccess(0), "receive " + wc.wrId(0) + ": " + wc.status(0));
                    assertEquals(received, pair.secondBuffer().getLong(0), "the SENDs arrive in order");
                    received++;
                    lastProgress = System.nanoTime();
                    nextRepost = lastProgress + gap;
                } else if (now - lastProgress > STALL.toNanos()) {
                    failure = "stalled after " + received + " of " + messages + " (no message for " + STALL.toSeconds()
                            + " s with a receive posted)";
                } else if (now - start > SLOW_RECEIVER_BOUND.toNanos()) {
                    failure = "only " + received + " of " + messages + " arrived within " + SLOW_RECEIVER_BOUND.toSeconds() + " s";
                } else {
                    Thread.sleep(0, 200_000); // the emulated CPU is rxe's too
                }
            }
            record("SENDs against a slow receiver", (failure == null ? "all " + messages + " arrived in " + secondsSince(start) + " s"
                    : failure) + "; " + pair.context().portCounters(device.port()).changesSince(before));
        }
    }

    /**
     * One operation at a time on one device, waited for three ways: 500 signaled 64-byte WRITEs,
     * each polled to its completion in a busy loop, then 500 with {@code Thread.yield()} between
     * polls, then 500 with a 50 us sleep between polls. How the wait gives up the CPU may matter
     * where rxe does its work in kernel threads rather than in the poster's system call: on 6.12
     * {@code DataPathAllocationDeviceTest}'s busy-polled loops took 3.7-4.1 ms per operation.
     */
    @DeviceTest
    void roundTripsBusyPolledYieldingAndSleeping(TestDevice device) throws InterruptedException {
        int ops = 500;
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            requireRxe(pair.context());
            RegisteredBuffer target = pair.secondBuffer();
            SendWorkRequest write = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .sge(pair.firstBuffer().region(), 0, 64).rdma(target.deviceAddress(0), target.region().rkey());
            List<String> outcomes = new ArrayList<>();
            for (String wait : List.of("busy", "yield", "sleep 50 us")) {
                long start = System.nanoTime();
                long deadline = start + BOUND.toNanos();
                for (int i = 0; i < ops; i++) {
                    pair.first().postSend(write.wrId(i));
                    while (pair.firstQueue().poll(pair.completions(), 1) == 0) {
                        if (System.nanoTime() - deadline > 0) {
                            fail(wait + ": only " + i + " of " + ops + " WRITEs completed within " + BOUND);
                        }
                        switch (wait) {
                            case "busy" -> Thread.onSpinWait();
                            case "yield" -> Thread.yield();
                            default -> Thread.sleep(0, 50_000);
                        }
                    }
                    assertTrue(pair.completions().isSuccess(0), wait + ": WRITE " + i + ": " + pair.completions().status(0));
                }
                outcomes.add(wait + " " + String.format(java.util.Locale.ROOT, "%.3f", (System.nanoTime() - start) / 1e6 / ops)
                        + " ms");
            }
            record("one 64 B WRITE at a time, per operation", String.join("; ", outcomes));
        }
    }

    /**
     * A WRITE with an rkey nobody issued, on a queue pair looped back to itself (its own responder):
     * on 6.1 it completed with the responder's NAK, REM_ACCESS_ERR ({@code CompletionFuturesDeviceTest}
     * asserted that until it moved to two queue pairs); the probe records the status it gets.
     */
    @DeviceTest
    void aBadRkeyOnAQueuePairLoopedBackToItself(TestDevice device) throws InterruptedException {
        try (Arena arena = Arena.ofConfined(); Context context = DeviceScope.openContext(device)) {
            requireRxe(context);
            ProtectionDomain pd = context.allocateProtectionDomain();
            MemoryRegion region = pd.register(arena.allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            CompletionQueue cq = context.createCompletionQueue(8);
            QueuePair qp = PollerDeviceTest.loopback(context, device, pd, cq);
            qp.postSend(SendWorkRequest.allocate(1).wrId(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .sge(region, 0, 64).rdma(region.memoryAddress() + 2048, region.rkey() ^ 0x5a5a00));
            Completions wc = Completions.allocate(1);
            assertTrue(pollOne(cq, wc, System.nanoTime() + BOUND.toNanos()), "the bad WRITE did not complete within " + BOUND);
            assertFalse(wc.isSuccess(0), "a WRITE with an rkey nobody issued succeeded");
            record("a WRITE with a bad rkey on a queue pair looped back to itself", wc.status(0) + ", the queue pair then in "
                    + qp.queryState());
        }
    }

    private static void requireRxe(Context context) {
        assumeTrue(context.maxAttributes().vendorId() == ReadyToSendOptions.RXE_VENDOR_ID,
                "these are probes of SoftRoCE (rxe) behaviours");
    }

    /** Polls {@code cq} for one completion into entry 0 of {@code wc} until {@code deadline} (System.nanoTime). */
    private static boolean pollOne(CompletionQueue cq, Completions wc, long deadline) throws InterruptedException {
        while (cq.poll(wc, 1) == 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    private static String secondsSince(long start) {
        return String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9);
    }

    /** Prints the outcome with the kernel release, the line docs/kernel-6.12.md's table is made of. */
    private static void record(String behaviour, String outcome) {
        String release;
        try {
            release = Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip();
        } catch (IOException e) {
            release = "an unknown kernel (" + e + ")";
        }
        System.out.println("rxe probe on " + release + ": " + behaviour + ": " + outcome);
    }
}
