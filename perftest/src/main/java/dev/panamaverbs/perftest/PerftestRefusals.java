package dev.panamaverbs.perftest;

import dev.panamaverbs.perftest.PerftestOptions.Connection;
import java.util.List;
import java.util.Map;

/**
 * What the twin refuses of perftest's options, and why: by name (not implemented yet), with the
 * reason (another provider's feature; what the device reports, {@link DeviceFeature}), or with
 * perftest's own text where perftest refuses it too.
 */
final class PerftestRefusals {
    private PerftestRefusals() {}

    /** perftest's short options the Java perftest does not implement, with their long names. */
    static final Map<Character, String> UNSUPPORTED = Map.ofEntries(
            Map.entry('f', "margin"), Map.entry('g', "mcg"), Map.entry('M', "MGID"), Map.entry('W', "report-counters"));

    /** perftest 4.5's long-only options that the Java perftest does not implement. */
    private static final java.util.Set<String> UNSUPPORTED_LONG = java.util.Set.of("burst_size", "cpu_util",
            "disable_pcie_relaxed", "dlid", "dont_xchg_versions", "force-link", "ipv6", "latency_gap",
            "mmap", "mmap-offset", "mr_per_qp", "out_json",
            "out_json_file", "rate_units",
            "recv_post_list", "report-both", "report-per-port", "reversed", "run_infinitely", "source_ip",
            "typical_pkt_size", "use-srq", "use_hugepages");

    /**
     * perftest 4.5's long-only options that need what no device can be asked for through
     * libibverbs (a provider's own library), refused with the reason.
     */
    private static final Map<String, String> REFUSED_LONG = refusedLong();

    private static Map<String, String> refusedLong() {
        Map<String, String> refused = new java.util.HashMap<>();
        String aes = "AES-XTS is mlx5's crypto (mlx5dv), which libibverbs cannot ask rxe or any device for";
        for (String name : List.of("aes_xts", "encrypt_on_tx", "sig_before", "aes_block_size", "data_enc_keys_number", "kek_path",
                "credentials_path", "data_enc_key_app_path")) {
            refused.put(name, aes);
        }
        String dc = "DC is mlx5's transport (mlx5dv), which libibverbs cannot ask rxe or any device for";
        refused.put("log_dci_streams", dc);
        refused.put("log_active_dci_streams", dc);
        refused.put("inline_recv", "inline receive is a provider's extension with no libibverbs attribute to ask a device for");
        return Map.copyOf(refused);
    }

    /** The long names of every option refused here. */
    static java.util.Set<String> names() {
        java.util.Set<String> refused = new java.util.TreeSet<>(UNSUPPORTED.values());
        refused.addAll(UNSUPPORTED_LONG);
        refused.addAll(REFUSED_LONG.keySet());
        refused.addAll(ALWAYS_REFUSED);
        return refused;
    }

    /**
     * Options the parser reads (perftest's checks of their values come first) and then always
     * refuses: {@code -L} as perftest refuses it on these tests, {@code -T} (without {@code -R}
     * as perftest, with it for want of rdma_set_option), and the device features
     * ({@link DeviceFeature}), by what the device reports.
     */
    static final java.util.Set<String> ALWAYS_REFUSED = java.util.Set.of("hop_limit", "tos", "dualport", "odp",
            "rate_limit", "rate_limit_type");

    /** Refuses a short option the twin does not implement, by name. */
    static void refuseShortOption(char letter) {
        if (UNSUPPORTED.containsKey(letter)) {
            throw new IllegalArgumentException("-" + letter + " (--" + UNSUPPORTED.get(letter)
                    + ") is not supported by the Java perftest yet");
        }
    }

    /** Refuses perftest's long-only options that the Java perftest does not implement: by name, or with the reason. */
    static void refuseLongOptions(String[] args) {
        for (String arg : args) {
            if (arg.equals("--")) {
                return;
            }
            if (arg.startsWith("--")) {
                int eq = arg.indexOf('=');
                String name = arg.substring(2, eq < 0 ? arg.length() : eq);
                if (UNSUPPORTED_LONG.contains(name)) {
                    throw new IllegalArgumentException("--" + name + " is not supported by the Java perftest yet");
                }
                if (REFUSED_LONG.containsKey(name)) {
                    throw new IllegalArgumentException("--" + name + ": " + REFUSED_LONG.get(name));
                }
            }
        }
    }

    /**
     * perftest's {@code -c} ({@code change_conn_type}): its names, case as given, and its checks of
     * the verb at once (UC not on READ/atomic, UD only on SEND); XRC is taken here
     * and refused by what the device reports ({@link DeviceFeature#XRC}), DC and SRD are refused
     * with the reason.
     */
    static Connection connection(String text, TestKind.Verb verb) {
        return switch (text) {
            case "RC", "XRC" -> Connection.RC;
            case "UC" -> {
                if (verb == TestKind.Verb.READ || verb == TestKind.Verb.ATOMIC) {
                    throw new IllegalArgumentException("UC connection not possible in READ/ATOMIC verbs");
                }
                yield Connection.UC;
            }
            case "UD" -> {
                if (verb != TestKind.Verb.SEND) {
                    throw new IllegalArgumentException("UD connection only possible in SEND verb");
                }
                yield Connection.UD;
            }
            case "DC" -> throw new IllegalArgumentException("-c DC: DC is mlx5's transport (mlx5dv), which libibverbs"
                    + " cannot ask rxe or any device for");
            case "SRD" -> throw new IllegalArgumentException(verb != TestKind.Verb.SEND && verb != TestKind.Verb.READ
                    ? "SRD connection only possible in SEND/READ verbs"
                    : "-c SRD: SRD is efa's transport (efadv), which libibverbs cannot ask rxe or any device for");
            default -> throw new IllegalArgumentException("Invalid Connection type. Please choose from {RC,UC,UD,XRC,DC,SRD}");
        };
    }

    /** perftest's {@code --rate_limit}: {@code atof} ({@code leadingFloat}), above 0. */
    static double rateLimit(String text, java.util.regex.Pattern leadingFloat) {
        java.util.regex.Matcher number = leadingFloat.matcher(text);
        double value = number.lookingAt() ? Double.parseDouble(number.group()) : 0;
        if (value <= 0) {
            throw new IllegalArgumentException("Rate limit must be non-negative");
        }
        return value;
    }

    /** perftest's {@code --rate_limit_type}: HW, SW or PP. */
    static String rateLimitType(String text) {
        if (!List.of("HW", "SW", "PP").contains(text)) {
            throw new IllegalArgumentException("Invalid rate limit type flag. Please use HW, SW or PP.");
        }
        return text;
    }

    /**
     * The rate limiter perftest would run: PP refused with its text, SW not implemented here, HW (its
     * default once {@code --rate_limit} is given) refused by the device's packet pacing report.
     */
    static void rateLimiter(String type, List<DeviceFeature> features) {
        switch (type == null ? "HW" : type) {
            case "PP" -> throw new IllegalArgumentException("Packet Pacing is only supported for Raw Ethernet.");
            case "SW" -> throw new IllegalArgumentException("--rate_limit_type=SW is not supported by the Java perftest yet");
            default -> features.add(DeviceFeature.HARDWARE_RATE_LIMIT);
        }
    }
}
