package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * verbs-info against {@code ibv_devinfo -v} (ibverbs-utils) on the test device, field by field:
 * every field ibv_devinfo prints must be in verbs-info's output with the same value, and verbs-info
 * prints nothing else in the device block than its GID-table and library sections. verbs-info runs
 * as users run it, {@code java -jar verbs-info/target/verbs-info.jar} (system property
 * {@code panamaverbs.info.jar} names another jar), from the repository root where ./verbs test runs.
 */
class VerbsInfoDeviceTest {
    private static final long TIMEOUT_SECONDS = 300;

    @DeviceTest
    void verbsInfoPrintsWhatIbvDevinfoPrints(TestDevice device) throws Exception {
        Path jar = Path.of(System.getProperty("panamaverbs.info.jar", "verbs-info/target/verbs-info.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(jar), () -> "no " + jar + ": build it (mvn install -pl verbs-info -am)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

        String devinfo = run(List.of("ibv_devinfo", "-v", "-d", device.name()));
        String info = run(List.of(java, "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString(), "-v", "-d", device.name()));

        Map<String, String> expected = DevinfoFields.parse(devinfo);
        Map<String, String> actual = DevinfoFields.parse(info);
        assertTrue(expected.size() > 60, () -> "ibv_devinfo -v printed only " + expected.size() + " fields:\n" + devinfo);
        List<String> mismatches = new ArrayList<>(DevinfoFields.mismatches(expected, actual));
        for (String key : actual.keySet()) {
            boolean extraSection = key.startsWith("-/") || key.contains("/gid_table port ");
            if (!expected.containsKey(key) && !extraSection) {
                mismatches.add(key + ": only verbs-info prints it ('" + actual.get(key) + "')");
            }
        }
        assertEquals(List.of(), mismatches, () -> mismatches.size() + " field(s) differ (of " + expected.size()
                + ")\n" + String.join("\n", mismatches) + "\n---- ibv_devinfo -v\n" + devinfo + "---- verbs-info -v\n" + info);
        // the device tests' VM loads rdma_ucm: the library section says rdma_cm can be used
        assertTrue(info.contains("rdma_cm device:\t/dev/infiniband/rdma_cm opens\n") && info.contains("rdma_cm:\tavailable\n"),
                () -> "verbs-info does not report rdma_cm usable:\n" + info);
        System.out.println("verbs-info matches ibv_devinfo -v on " + device.name() + ": " + expected.size() + " fields");
    }

    /** {@code -c}: the port's counters section, with rxe's hw_counters and its raw clock "not offered". */
    @DeviceTest
    void verbsInfoCountersListsThePortsHardwareCounters(TestDevice device) throws Exception {
        Path jar = Path.of(System.getProperty("panamaverbs.info.jar", "verbs-info/target/verbs-info.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(jar), () -> "no " + jar + ": build it (mvn install -pl verbs-info -am)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String info = run(List.of(java, "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString(), "-c", "-d", device.name()));
        assertTrue(info.contains("\tport_counters port " + device.port() + ":\t"), () -> "no counters section:\n" + info);
        if (device.name().startsWith("rxe")) {
            assertTrue(info.contains("\t\thw_counters/sent_pkts:\t") && info.contains("raw clock not offered"),
                    () -> "rxe's hw_counters and its missing query_rt_values:\n" + info);
        }
        System.out.println("verbs-info -c on " + device.name() + ":\n" + info.substring(info.indexOf("\tport_counters")));
    }

    /** Runs {@code command}; its stdout, asserting exit status 0. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        Path errors = Files.createTempFile("verbs-info-test", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), () -> command + " did not finish in " + TIMEOUT_SECONDS + "s");
            String text = new String(out, StandardCharsets.UTF_8);
            String err = Files.readString(errors);
            assertEquals(0, process.exitValue(), () -> command + " failed:\n" + text + err);
            return text;
        } finally {
            Files.deleteIfExists(errors);
        }
    }
}
