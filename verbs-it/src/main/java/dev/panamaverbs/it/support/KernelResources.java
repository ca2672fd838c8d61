package dev.panamaverbs.it.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel's count of RDMA objects per device, from iproute2's {@code rdma resource show},
 * whose summary reads one line per device:
 * {@code 0: rxe0: pd 2 cq 3 qp 1 cm_id 0 mr 2 ctx 0 srq 0}. What the kernel counts is what
 * really exists: a binding that forgets to free a PD or MR shows up here even when its own
 * bookkeeping says closed.
 */
public final class KernelResources {
    private static final Pattern PAIR = Pattern.compile("([a-z_]+) (\\d+)");

    private KernelResources() {}

    /** Whether the {@code rdma} tool can be run here. */
    public static boolean toolAvailable() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "rdma"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The counts for {@code device} (e.g. {@code {pd=2, cq=3, qp=1, cm_id=0, mr=2, ctx=0, srq=0}}).
     *
     * @throws IllegalStateException when the tool fails or does not list the device
     */
    public static Map<String, Integer> count(String device) {
        String output = Commands.output(30, "rdma", "resource", "show");
        return parse(output, device).orElseThrow(() -> new IllegalStateException(
                "rdma resource show does not list " + device + ":\n" + output));
    }

    /** {@link #count} where iproute2's rdma tool is installed, else empty. */
    public static Map<String, Integer> countIfAvailable(String device) {
        return toolAvailable() ? count(device) : Map.of();
    }

    /** The counts on {@code device}'s line of an {@code rdma resource show} summary. */
    public static Optional<Map<String, Integer>> parse(String output, String device) {
        for (String line : output.split("\n")) {
            String[] parts = line.strip().split(":", 3);
            if (parts.length == 3 && parts[1].strip().equals(device)) {
                Map<String, Integer> counts = new LinkedHashMap<>();
                Matcher matcher = PAIR.matcher(parts[2]);
                while (matcher.find()) {
                    counts.put(matcher.group(1), Integer.parseInt(matcher.group(2)));
                }
                return Optional.of(counts);
            }
        }
        return Optional.empty();
    }

}
