package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Two-host support without a second host: the environment the harness passes, the skip outside
 * the harness (through the Jupiter engine, as JUnit reports it), the class-name rule the summary
 * relies on, and a {@link Peer} over a job folder that a fake agent fills in.
 */
class TwoHostSupportTest {
    /** The tag of engine fixtures, as verbs-testkit's RdmaDeviceExtensionEngineTest.FIXTURE_TAG: Surefire excludes it. */
    static final String FIXTURE_TAG = "engine-fixture";

    @TempDir
    Path dir;

    // ---- the environment ----

    @Test
    void noDirectoryMeansNoTwoHostRun() {
        assertTrue(TwoHostEnvironment.read(name -> null).isEmpty());
        assertTrue(TwoHostEnvironment.read(name -> " ").isEmpty());
    }

    @Test
    void readsWhatTheHarnessSets() {
        Map<String, String> env = Map.of(TwoHostEnvironment.DIR_ENV, dir.toString(), TwoHostEnvironment.HOST_ENV, "a",
                TwoHostEnvironment.LOCAL_ENV, "198.18.0.1", TwoHostEnvironment.PEER_ENV, "198.18.0.2",
                TwoHostEnvironment.DEVICE_ENV, "rxe1", TwoHostEnvironment.PEER_RUN_ENV, "/run/b");
        TwoHostEnvironment environment = TwoHostEnvironment.read(env::get).orElseThrow();
        assertTrue(environment.isHostA());
        assertEquals("198.18.0.2", environment.peerAddress().getHostAddress());
        assertEquals("rxe1", environment.deviceName());
        assertEquals(dir.resolve("jobs"), environment.jobs());
    }

    @Test
    void aHalfSetEnvironmentIsABrokenHarness() {
        Map<String, String> env = Map.of(TwoHostEnvironment.DIR_ENV, dir.toString(), TwoHostEnvironment.HOST_ENV, "a");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TwoHostEnvironment.read(env::get));
        assertTrue(e.getMessage().contains(TwoHostEnvironment.LOCAL_ENV), e.getMessage());
        Map<String, String> name = Map.of(TwoHostEnvironment.DIR_ENV, dir.toString(), TwoHostEnvironment.HOST_ENV, "a",
                TwoHostEnvironment.LOCAL_ENV, "hosta.example", TwoHostEnvironment.PEER_ENV, "198.18.0.2",
                TwoHostEnvironment.DEVICE_ENV, "rxe1", TwoHostEnvironment.PEER_RUN_ENV, "/run/b");
        assertThrows(IllegalStateException.class, () -> TwoHostEnvironment.read(name::get), "never a name lookup");
    }

    // ---- the extension, through the engine (fixtures tagged engine-fixture, never run on their own) ----

    @Tag(FIXTURE_TAG)
    static class SkippedTwoHostTest {
        @Test
        @ExtendWith(TwoHostExtension.class)
        void needsTwoHosts(TwoHosts hosts) {
            throw new AssertionError("ran outside the harness: " + hosts);
        }
    }

    @Tag(FIXTURE_TAG)
    static class Misnamed {
        @Test
        @ExtendWith(TwoHostExtension.class)
        void needsTwoHosts(TwoHosts hosts) {
            throw new AssertionError("ran: " + hosts);
        }
    }

    @Test
    void outsideTheHarnessTwoHostTestsAreSkippedWithTheMarker() {
        Event skipped = EngineTestKit.engine("junit-jupiter").selectors(selectClass(SkippedTwoHostTest.class)).execute()
                .allEvents().skipped().list().getFirst();
        String reason = skipped.getPayload(String.class).orElseThrow();
        assertTrue(reason.startsWith(TwoHostTest.SKIP_PREFIX + "not in the two-VM harness (VERBS_TWO_HOST_DIR is unset)"), reason);
    }

    @Test
    void twoHostTestClassesMustBeNamedForTheSummary() {
        Event failed = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Misnamed.class)).execute()
                .allEvents().failed().list().getFirst();
        Throwable cause = failed.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
        assertTrue(cause.getMessage().contains("must be named *TwoHostTest"), cause.getMessage());
    }

    // ---- a peer over its job folder ----

    @Test
    void aPeerPublishesValuesAndExits() {
        PeerJob job = new PeerJob(dir.resolve("001-X"));
        PeerJob.writeAtomically(job.request(), "X\n");
        Peer peer = new Peer(job, "X (test)");
        PeerJob.writeAtomically(job.value("port"), "18515");
        assertEquals(18515, peer.awaitInt("port", Duration.ofSeconds(5)));
        PeerJob.writeAtomically(job.output(), "hello\n");
        PeerJob.writeAtomically(job.exit(), "0\n");
        PeerResult result = peer.assertSucceeded(Duration.ofSeconds(5));
        assertEquals(new PeerResult(0, "hello\n"), result);
        peer.close(); // exited: nothing to kill
        assertTrue(Files.notExists(job.kill()));
    }

    @Test
    void aPeerThatDiesFailsTheTestWithItsOutput() {
        PeerJob job = new PeerJob(dir.resolve("002-Y"));
        PeerJob.writeAtomically(job.request(), "Y\n");
        PeerJob.writeAtomically(job.output(), "Exception in thread \"main\" java.lang.IllegalStateException: no rxe1\n");
        PeerJob.writeAtomically(job.exit(), "1\n");
        Peer peer = new Peer(job, "Y (test)");
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> peer.awaitValue("port", Duration.ofSeconds(5)));
        assertTrue(e.getMessage().startsWith("Y (test) exited 1 before publishing 'port'"), e.getMessage());
        assertTrue(e.getMessage().contains("no rxe1"), e.getMessage());
        AssertionFailedError exit = assertThrows(AssertionFailedError.class, () -> peer.assertSucceeded(Duration.ofSeconds(5)));
        assertTrue(exit.getMessage().contains("exited 1") && exit.getMessage().contains("no rxe1"), exit.getMessage());
    }

    @Test
    void aPeerThatTakesTooLongIsKilledAndTheTestFails() throws Exception {
        PeerJob job = new PeerJob(dir.resolve("003-Z"));
        PeerJob.writeAtomically(job.request(), "Z\n");
        PeerJob.writeAtomically(job.output(), "waiting for ever\n");
        Peer peer = new Peer(job, "Z (test)");
        Thread agent = Thread.ofVirtual().start(() -> { // the agent's part: kill on request
            while (Files.notExists(job.kill())) {
                Thread.onSpinWait();
            }
            PeerJob.writeAtomically(job.exit(), "137\n");
        });
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> peer.awaitExit(Duration.ofMillis(200)));
        assertTrue(e.getMessage().startsWith("Z (test) did not exit within PT0.2S (killed)"), e.getMessage());
        assertTrue(e.getMessage().contains("waiting for ever"), e.getMessage());
        agent.join(5000);
        assertEquals(137, job.exitStatus().orElseThrow());
    }

    // ---- what a test's end does to the peers (TwoHostExtension) ----

    private Peer runningPeer(String id, String output) {
        PeerJob job = new PeerJob(dir.resolve(id));
        PeerJob.writeAtomically(job.request(), id + "\n");
        PeerJob.writeAtomically(job.output(), output);
        return new Peer(job, id + " (test)");
    }

    @Test
    void aSkipLeavesEveryPeerRunningAndAttachesNothing() {
        Peer own = runningPeer("004-Own", "own output\n");
        Peer shared = runningPeer("005-Shared", "shared output\n");
        TestAbortedException skip = new TestAbortedException("capability ATOMICS: siw1 reports atomic_cap NONE");
        assertSame(skip, TwoHostExtension.withPeerOutput(skip, List.of(own), List.of(shared)));
        assertEquals(0, skip.getSuppressed().length);
        assertFalse(Files.exists(new PeerJob(dir.resolve("004-Own")).kill()), "no kill asked for the test's own peer");
        assertFalse(Files.exists(new PeerJob(dir.resolve("005-Shared")).kill()), "no kill asked for the class's peer");
    }

    @Test
    void aFailureKillsOnlyTheTestsOwnPeersAndAttachesEveryOutputOnce() throws Exception {
        Peer own = runningPeer("006-Own", "own output\n");
        Peer shared = runningPeer("007-Shared", "shared output\n");
        PeerJob ownJob = new PeerJob(dir.resolve("006-Own"));
        Thread agent = Thread.ofVirtual().start(() -> { // the agent's part: kill on request
            while (Files.notExists(ownJob.kill())) {
                Thread.onSpinWait();
            }
            PeerJob.writeAtomically(ownJob.exit(), "137\n");
        });
        AssertionFailedError failure = new AssertionFailedError("the test failed");
        assertSame(failure, TwoHostExtension.withPeerOutput(failure, List.of(own), List.of(shared)));
        agent.join(5000);
        assertTrue(own.hasExited(), "the test's own peer is killed");
        assertFalse(shared.hasExited() || Files.exists(new PeerJob(dir.resolve("007-Shared")).kill()),
                "the class's peer keeps serving the next tests");
        assertEquals(2, failure.getSuppressed().length);
        assertTrue(failure.getSuppressed()[0].getMessage().contains("own output"), failure.getSuppressed()[0].getMessage());
        assertTrue(failure.getSuppressed()[1].getMessage().contains("shared output"), failure.getSuppressed()[1].getMessage());
    }
}
