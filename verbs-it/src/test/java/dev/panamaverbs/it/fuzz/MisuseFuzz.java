package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.it.support.KernelResources;
import dev.panamaverbs.testkit.TestDevice;
import java.util.Map;

/**
 * The child JVM of one misuse-fuzz category:
 * {@code MisuseFuzz CATEGORY DEVICE PORT GID_INDEX SEED}. It takes the kernel's object counts,
 * runs the category's cases (which close everything they open), compares the counts again before
 * exiting, so a leak cannot hide behind the process's exit, and prints its {@link FuzzReport}.
 * Exit status 0 when every case ended clean or refused and nothing leaked, 1 otherwise.
 */
public final class MisuseFuzz {
    private MisuseFuzz() {}

    public static void main(String[] args) throws Exception {
        FuzzCategory category = FuzzCategory.valueOf(args[0]);
        TestDevice device = new TestDevice(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        long seed = Long.parseLong(args[4]);
        System.out.println(FuzzReport.seedLine(seed));
        category.warmUp.run(device);
        Map<String, Integer> before = KernelResources.count(device.name());
        FuzzRun run = new FuzzRun(category.label, seed);
        try {
            FuzzCategory.Cases.all(category.cases).run(device, run); // a category of one part skips like the rest
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            run.unexpected("setup", t.toString());
        }
        Map<String, Integer> after = KernelResources.count(device.name());
        boolean leaked = !after.equals(before);
        System.out.println(FuzzReport.leaksLine(leaked ? before + " -> " + after : "none"));
        System.out.println(FuzzReport.doneLine(run.cases()));
        System.out.flush();
        System.exit(run.failed() || leaked ? 1 : 0);
    }
}
