package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.testkit.TestDevice;
import org.opentest4j.TestAbortedException;
import java.util.List;

/**
 * The categories of the misuse fuzz (issue 14 item 5), each run in a child JVM of its own by
 * {@link MisuseFuzzDeviceTest}: its cases, the fewest cases a run of it must report, and the
 * child's extra JVM options. A category is a kind of misuse; the surfaces it covers grow inside
 * it (the one-sided package and {@code SendBatch} joined use after close, close races, bad
 * ranges and sizes), so a new surface costs no JVM start. {@link #PEER_INPUT} is the hostile
 * peer of the endpoint exchange.
 */
enum FuzzCategory {
    USE_AFTER_CLOSE("useAfterClose", 150 + 35 + 67, Cases.all(UseAfterCloseFuzz::run, OneSidedFuzz::useAfterClose,
            SendBatchFuzz::reuseAndClosedQueuePair)),
    CLOSE_RACE("closeRace", 6 + 6, Cases.all(CloseRaceFuzz::run, OneSidedFuzz::closeRace)),
    BAD_SGES("badSges", 40 + 60, Cases.all(SgeFuzz::run, OneSidedFuzz::outOfRange)),
    CLOSED_ARENAS("closedArenas", 10, ClosedArenaFuzz::run),
    ABSURD_SIZES("absurdSizes", 60 + 20, Cases.all(AbsurdSizeFuzz::run, SendBatchFuzz::capacities)),
    EXHAUSTION("exhaustion", 6, ExhaustionFuzz::run),
    DROPPED_REFERENCES("droppedReferences", 5, DroppedReferenceFuzz::run),
    // FORK: ProcessBuilder really forks the JVM (the default, posix_spawn, may vfork).
    FORK("fork", 5, ForkFuzz::run, "-Djdk.lang.Process.launchMechanism=FORK"),
    SEGMENT_WRITES("segmentWrites", 20, SegmentWriteFuzz::run),
    PEER_INPUT("peerInput", 150, ExchangeFuzz::run),
    // librdmacm keeps each device it opened open until the process exits: open it before the baseline count.
    CM_ORDER("rdmaCmOrder", 120 + 99, Cases.all(CmOrderFuzz::run, CmHighLevelFuzz::run), CmOrderFuzz::openRdmaCmOnce);

    /** A category's cases, reported through {@code run}; every resource they open is closed on return. */
    interface Cases {
        void run(TestDevice device, FuzzRun run) throws Exception;

        /**
         * {@code parts} one after the other, each with the run's seeded random numbers. A part
         * that needs what the device lacks (it throws a {@link TestAbortedException}, e.g.
         * {@code DeviceCapability.require}) is reported as skipped with that reason, and the
         * next parts still run.
         */
        static Cases all(Cases... parts) {
            return (device, run) -> {
                for (Cases part : parts) {
                    try {
                        part.run(device, run);
                    } catch (TestAbortedException skipped) {
                        run.skipped(skipped.getMessage());
                    }
                }
            };
        }
    }

    /** What the child does before it counts the kernel's objects (what a library keeps for the process). */
    interface WarmUp {
        void run(TestDevice device) throws Exception;
    }

    /** The category's name in reports and the child's arguments. */
    final String label;
    /** The fewest cases a run of it must report. */
    final int minCases;
    final Cases cases;
    final WarmUp warmUp;
    /** The child JVM's extra options. */
    final List<String> jvmOptions;

    FuzzCategory(String label, int minCases, Cases cases, String... jvmOptions) {
        this(label, minCases, cases, device -> { }, jvmOptions);
    }

    FuzzCategory(String label, int minCases, Cases cases, WarmUp warmUp, String... jvmOptions) {
        this.label = label;
        this.minCases = minCases;
        this.cases = cases;
        this.warmUp = warmUp;
        this.jvmOptions = List.of(jvmOptions);
    }
}
