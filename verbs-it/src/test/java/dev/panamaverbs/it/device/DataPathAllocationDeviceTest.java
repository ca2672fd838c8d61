package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.LocalPeerProcess;
import dev.panamaverbs.it.support.PeerProcess;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * Issue 11: the public data path allocates 0 bytes per operation on the posting thread in every
 * execution mode, not only once C2's escape analysis has removed what it can. Each mode runs
 * {@link DataPathAllocation} in a child JVM on the device: every loop of {@link DataPathLoops}
 * (post, chains, entry lists, inline, UD, receives, the shared receive queue, polls reading every
 * completion field, the extended completion queue, {@code SendBatch}, one-sided puts) warms up,
 * then must allocate exactly what an empty loop allocates (the baseline, 0 so far) over the
 * measured operations. When one does not, a second child under {@code -XX:-UseTLAB} records where
 * (JFR), and the failure shows the allocation sites.
 */
class DataPathAllocationDeviceTest {
    /** The bound on one child: JVM start under TCG, setting up five fixtures and the loops. */
    private static final Duration TIMEOUT = Duration.ofSeconds(900);

    /** Interpreted only: no escape analysis, every {@code new} on the path counts. */
    @DeviceTest
    void interpreted(TestDevice device) throws Exception {
        check("-Xint", List.of("-Xint"), false, device, 1_000, 3_000, false);
    }

    /** C1 only: compiled, still without escape analysis. */
    @DeviceTest
    void c1Only(TestDevice device) throws Exception {
        check("C1 only", List.of("-XX:TieredStopAtLevel=1"), false, device, 3_000, 20_000, false);
    }

    /**
     * The default tiered JIT. The warm-up passes C2's compile thresholds: when the JVM asks C2 to
     * compile a method, the asking thread first resolves every string constant of the method's
     * class (the error messages too) and loads the classes its signature names, a one-off per
     * class that is the JVM's, not the data path's. So this mode allows less than one byte per
     * operation over the measured ones (as the loader's JIT fork does): an object allocated per
     * operation, 16 bytes at least, still fails it; the two modes above require exactly 0. Pinned to one CPU where {@code taskset}
     * exists: under QEMU TCG, tiered compilation on two vCPUs sometimes crashes the JVM while
     * patching code (benchmarks/README.md, "Emulation caveat").
     */
    @DeviceTest
    void defaultJit(TestDevice device) throws Exception {
        check("default JIT", List.of(), true, device, 20_000, 20_000, true);
    }

    private static void check(String mode, List<String> jvmOptions, boolean pinned, TestDevice device, int warmUp,
            int ops, boolean belowOneBytePerOperation) throws Exception {
        // The child's loops connect queue pairs by hand and send datagrams: decide here, where a skip is a skip.
        DeviceCapability.CONNECT_WITHOUT_CM.require(device);
        DeviceCapability.UD.require(device);
        String output = runChild(mode, jvmOptions, pinned, device, warmUp, ops, false);
        List<String> failures = failures(output, belowOneBytePerOperation);
        if (!failures.isEmpty()) {
            List<String> options = new ArrayList<>(jvmOptions);
            options.add("-XX:-UseTLAB");
            String sites = runChild(mode + " (allocation sites)", options, pinned, device, warmUp, ops, true);
            fail(mode + ": the data path allocated:\n  " + String.join("\n  ", failures) + "\nwhere (JFR, -XX:-UseTLAB):\n"
                    + sites.lines().filter(l -> l.startsWith(DataPathAllocation.PREFIX + "site") || l.startsWith("      at")
                            || l.startsWith(DataPathAllocation.LOOP)).collect(Collectors.joining("\n")));
        }
    }

    /** The loops whose bytes exceed the baseline, as lines for the failure; fails when a loop or the baseline is missing. */
    static List<String> failures(String output) {
        return failures(output, false);
    }

    /**
     * As {@link #failures(String)}; with {@code belowOneBytePerOperation} a loop fails only when
     * its bytes over the baseline reach its operation count (one byte per operation or more).
     */
    static List<String> failures(String output, boolean belowOneBytePerOperation) {
        long baseline = -1;
        List<String> failures = new ArrayList<>();
        int loops = 0;
        for (String line : output.lines().toList()) {
            if (line.startsWith(DataPathAllocation.BASELINE)) {
                baseline = Long.parseLong(line.substring(DataPathAllocation.BASELINE.length()).split(" ")[0]);
            } else if (line.startsWith(DataPathAllocation.LOOP)) {
                String[] fields = line.substring(DataPathAllocation.LOOP.length()).split("\\|");
                long bytes = Long.parseLong(fields[1]);
                long operations = Long.parseLong(fields[2]);
                loops++;
                long allowed = belowOneBytePerOperation ? operations - 1 : 0;
                if (baseline < 0 || bytes - baseline > allowed) {
                    failures.add(fields[0] + ": " + bytes + " B over " + fields[2] + " operations (baseline " + baseline
                            + " B)");
                }
            }
        }
        assertTrue(baseline == 0, "the empty loop allocated " + baseline + " B: the meter is not exact here\n" + output);
        assertTrue(loops >= DataPathLoops.LOOP_COUNT, "only " + loops + " loops reported\n" + output);
        return failures;
    }

    private static String runChild(String mode, List<String> jvmOptions, boolean pinned, TestDevice device, int warmUp,
            int ops, boolean sites) throws Exception {
        String argFile = LocalPeerProcess.stagedArgFile();
        Path dir = Files.createTempDirectory("data-path-allocation");
        List<String> command = new ArrayList<>();
        Path taskset = Path.of("/usr/bin/taskset");
        if (pinned && Files.isExecutable(taskset)) {
            command.addAll(List.of(taskset.toString(), "-c", "0"));
        }
        command.addAll(LocalPeerProcess.javaCommand(argFile, List.of("-XX:+UseSerialGC", "-Xmx256m"), dir));
        command.addAll(jvmOptions);
        command.addAll(List.of(DataPathAllocation.class.getName(), device.name(), Integer.toString(device.port()),
                Integer.toString(device.gidIndex()), Integer.toString(warmUp), Integer.toString(ops)));
        if (sites) {
            command.add("sites");
        }
        try (PeerProcess child = LocalPeerProcess.start("data path allocation, " + mode, command, dir, () -> false)) {
            OptionalInt exit = child.awaitExit(TIMEOUT);
            String output = child.output();
            System.out.println("data path allocation, " + mode + ", " + warmUp + " warm-up + " + ops + " measured operations:");
            output.lines().filter(l -> l.startsWith(DataPathAllocation.PREFIX)).forEach(l -> System.out.println("  " + l));
            if (exit.isEmpty() || exit.getAsInt() != 0) {
                fail(mode + ": the child " + (exit.isEmpty() ? "did not exit within " + TIMEOUT : "exited " + exit.getAsInt())
                        + "\n" + child.describe());
            }
            return output;
        }
    }
}
