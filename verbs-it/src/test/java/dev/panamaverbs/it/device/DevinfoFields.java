package dev.panamaverbs.it.device;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ibv_devinfo}-style text read as fields, so that two outputs compare field by field. Each
 * {@code name:\tvalue} line is a field named by where it stands: {@code rxe0/max_qp} (one tab),
 * {@code rxe0/rss_caps/supported_qp} (two tabs, under the last one-tab line),
 * {@code rxe0/port 1/active_mtu} (three tabs, under the last {@code port:} line). A line without a
 * colon is a field with an empty value ({@code tag matching not supported}); lines of five tabs are
 * flags and join the value of the field above them. A name seen twice in one place gets {@code #2}.
 * Lines with no tab and no {@code hca_id} (verbs-info's library section) are under {@code -/}.
 */
final class DevinfoFields {
    private DevinfoFields() {}

    /** The fields of {@code text}, in order: name to value (flags appended as {@code [A, B]}). */
    static Map<String, String> parse(String text) {
        Map<String, List<String>> fields = new LinkedHashMap<>();
        String device = "-";
        String section = "";
        String port = "";
        String last = null;
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int tabs = 0;
            while (tabs < line.length() && line.charAt(tabs) == '\t') {
                tabs++;
            }
            String content = line.substring(tabs).strip();
            if (tabs >= 5 && last != null) {
                fields.get(last).add(content);
                continue;
            }
            int colon = content.indexOf(':');
            String name = colon < 0 ? content : content.substring(0, colon).strip();
            String value = colon < 0 ? "" : content.substring(colon + 1).strip();
            String place;
            if (tabs == 0) {
                if (name.equals("hca_id")) {
                    device = value;
                    section = "";
                    port = "";
                }
                place = name.equals("hca_id") ? device : "-";
            } else if (tabs == 1) {
                section = name;
                port = "";
                place = device;
            } else if (tabs == 2 && name.equals("port")) {
                port = "port " + value;
                place = device;
            } else if (tabs == 2) {
                place = device + "/" + section;
            } else {
                place = device + "/" + port;
            }
            String key = place + "/" + name;
            for (int n = 2; fields.containsKey(key); n++) {
                key = place + "/" + name + "#" + n;
            }
            List<String> values = new ArrayList<>();
            values.add(value);
            fields.put(key, values);
            last = key;
        }
        Map<String, String> flat = new LinkedHashMap<>();
        fields.forEach((key, values) -> flat.put(key, values.size() == 1 ? values.getFirst()
                : values.getFirst() + " " + values.subList(1, values.size())));
        return flat;
    }

    /**
     * Every field of {@code expected} that {@code actual} lacks or prints differently, one line each:
     * {@code rxe0/port 1/active_mtu: ibv_devinfo '1024 (3)', verbs-info '4096 (5)'}.
     */
    static List<String> mismatches(Map<String, String> expected, Map<String, String> actual) {
        List<String> mismatches = new ArrayList<>();
        expected.forEach((key, value) -> {
            String other = actual.get(key);
            if (!value.equals(other)) {
                mismatches.add(key + ": ibv_devinfo '" + value + "', verbs-info "
                        + (other == null ? "(missing)" : "'" + other + "'"));
            }
        });
        return mismatches;
    }
}
