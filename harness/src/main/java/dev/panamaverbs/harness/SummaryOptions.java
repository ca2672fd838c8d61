package dev.panamaverbs.harness;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;

/**
 * The options of {@code summary}: [--unit] [--device] [--build-status N] [--step-status N]
 * [--where TEXT] [--unit-seconds N] [--device-seconds N] [--reports DIR]. Defaults: nothing ran,
 * every status 0, the rxe VM, reports in target/device-reports.
 */
final class SummaryOptions {
    private SummaryOptions() {}

    static TestRun parse(Path root, List<String> args, boolean ci) {
        boolean unit = false, device = false;
        int buildStatus = 0, stepStatus = 0;
        long unitSeconds = 0, deviceSeconds = 0;
        String where = TestRun.VM;
        Path reports = root.resolve("target/device-reports");
        for (Iterator<String> it = args.iterator(); it.hasNext(); ) {
            String option = it.next();
            switch (option) {
                case "--unit" -> unit = true;
                case "--device" -> device = true;
                case "--build-status" -> buildStatus = Integer.parseInt(value(option, it));
                case "--step-status" -> stepStatus = Integer.parseInt(value(option, it));
                case "--where" -> where = value(option, it);
                case "--unit-seconds" -> unitSeconds = Long.parseLong(value(option, it));
                case "--device-seconds" -> deviceSeconds = Long.parseLong(value(option, it));
                case "--reports" -> reports = root.resolve(value(option, it));
                default -> throw new IllegalArgumentException("unknown summary option: " + option);
            }
        }
        return new TestRun(root, reports, unit, device, buildStatus, stepStatus, where, unitSeconds, deviceSeconds, ci);
    }

    private static String value(String option, Iterator<String> it) {
        if (!it.hasNext()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return it.next();
    }
}
