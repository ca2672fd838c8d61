package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.it.support.LocalPeerProcess;
import dev.panamaverbs.it.support.PeerProcess;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The memory lock limit against the messaging layer's registration cache (issue 24): a child JVM
 * ({@link RegistrationLimitChild}) runs with {@code RLIMIT_MEMLOCK} lowered to
 * {@value #LIMIT} bytes ({@code prlimit --memlock}) and, when this process is root, without
 * {@code CAP_IPC_LOCK} ({@code setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock}; the
 * kernel exempts that capability from the limit). Its cache reads the limit and defaults its
 * budget to half; the budget refuses a page more with everything leased, and the kernel refuses
 * a registration above the limit with ENOMEM: both are {@code RegistrationLimitException} whose
 * message names the limit and the fix.
 */
class RegistrationLimitDeviceTest {
    private static final long LIMIT = 64 * 1024;
    private static final long ABOVE_LIMIT = 1024 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(180);
    private static final String SETPRIV = "/usr/bin/setpriv";
    private static final String PRLIMIT = "/usr/bin/prlimit";

    @DeviceTest
    void aLoweredMemlockLimitGivesTheDocumentedException(TestDevice device) throws Exception {
        String argFile = LocalPeerProcess.stagedArgFile();
        assertTrue(Files.isExecutable(Path.of(PRLIMIT)), PRLIMIT + " (util-linux) is missing");
        List<String> command = new ArrayList<>();
        if (RegistrationLimitChild.uid() == 0) {
            assertTrue(Files.isExecutable(Path.of(SETPRIV)), SETPRIV + " (util-linux) is missing");
            command.addAll(List.of(SETPRIV, "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock", "--"));
        }
        command.addAll(List.of(PRLIMIT, "--memlock=" + LIMIT + ":" + LIMIT, "--"));
        Path dir = Files.createTempDirectory("registration-limit");
        command.addAll(LocalPeerProcess.javaCommand(argFile, List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m"), dir));
        command.addAll(List.of(RegistrationLimitChild.class.getName(), device.name(), Integer.toString(device.port()),
                Integer.toString(device.gidIndex()), Long.toString(ABOVE_LIMIT)));
        try (PeerProcess child = LocalPeerProcess.start("registration limit", command, dir, () -> false)) {
            OptionalInt exit = child.awaitExit(TIMEOUT);
            String output = child.output();
            output.lines().filter(line -> line.startsWith(RegistrationLimitChild.PREFIX))
                    .forEach(line -> System.out.println("# RegistrationLimitDeviceTest: " + line));
            assertEquals(OptionalInt.of(0), exit, child.describe());
            assertLine(output, "cap_ipc_lock false", child);
            assertLine(output, "memlock " + LIMIT + " budget " + LIMIT / 2, child);
            String budget = assertLine(output, "budget-refused verb null errno 0 message ", child);
            assertTrue(budget.contains("budget of " + LIMIT / 2 + " bytes"), budget);
            assertTrue(budget.contains("RLIMIT_MEMLOCK " + LIMIT + " bytes"), budget);
            String kernel = assertLine(output, "kernel-refused verb ibv_reg_mr errno ", child);
            assertTrue(kernel.contains("errno 12 ") || kernel.contains("errno 11 "), kernel);
            for (String words : List.of("RLIMIT_MEMLOCK of " + LIMIT + " bytes", "ulimit -l", "LimitMEMLOCK=",
                    "--ulimit memlock=-1", "IPC_LOCK")) {
                assertTrue(kernel.contains(words), "the message names " + words + ": " + kernel);
            }
            assertLine(output, "done", child);
        } finally {
            try (var files = Files.list(dir)) {
                if (files.findAny().isEmpty()) {
                    Files.delete(dir);
                }
            }
        }
    }

    /** The child's line starting with {@code start}, after the prefix. */
    private static String assertLine(String output, String start, PeerProcess child) {
        return output.lines().filter(line -> line.startsWith(RegistrationLimitChild.PREFIX + start)).findFirst()
                .orElseThrow(() -> new AssertionError("the child said no \"" + start + "...\"\n" + child.describe()));
    }
}
