package dev.panamaverbs.it.device;

import dev.panamaverbs.testkit.TestDevice;
import java.util.Map;

/**
 * The child JVM of {@link DataPathAllocationDeviceTest}:
 * {@code DataPathAllocation DEVICE PORT GID_INDEX WARM_UP OPS [sites]}. Runs each loop of
 * {@link DataPathLoops} {@code WARM_UP} times, then {@code OPS} more, and prints the bytes this
 * thread allocated over those (after an empty loop measured the same way, the baseline). With
 * {@code sites} (the parent's second run, under {@code -XX:-UseTLAB}) a loop that allocated is
 * run once more inside a JFR recording and its allocation sites are printed. Exit status 0 when
 * every loop ran, whatever it allocated (the parent judges), 1 otherwise.
 */
public final class DataPathAllocation {
    static final String PREFIX = "allocation-check ";
    static final String LOOP = PREFIX + "loop ";
    static final String BASELINE = PREFIX + "baseline ";

    private DataPathAllocation() {}

    public static void main(String[] args) throws Exception {
        TestDevice device = new TestDevice(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        int warmUp = Integer.parseInt(args[3]);
        int ops = Integer.parseInt(args[4]);
        boolean sites = args.length > 5 && args[5].equals("sites");
        AllocationMeter.enable();
        System.out.println(BASELINE + AllocationMeter.measure(AllocationMeter.EMPTY, warmUp, ops) + " " + ops);
        int status = 0;
        try (DataPathLoops loops = new DataPathLoops(device)) {
            for (Map.Entry<String, AllocationMeter.Op> loop : loops.loops().entrySet()) {
                long started = System.nanoTime();
                long bytes = AllocationMeter.measure(loop.getValue(), warmUp, ops);
                long millis = (System.nanoTime() - started) / 1_000_000;
                System.out.println(LOOP + loop.getKey() + "|" + bytes + "|" + ops + "|" + millis);
                if (sites && bytes != 0) {
                    for (String site : AllocationMeter.sites(loop.getValue(), Math.min(ops, 500), 24)) {
                        System.out.println(PREFIX + "site of " + loop.getKey() + ": " + site);
                    }
                }
                System.out.flush();
            }
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}
