package dev.panamaverbs.it.device;

import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.messaging.registration.RegistrationBudget;
import dev.panamaverbs.messaging.registration.RegistrationCache;
import dev.panamaverbs.messaging.registration.RegistrationLease;
import dev.panamaverbs.messaging.registration.RegistrationLimitException;
import dev.panamaverbs.messaging.registration.RegistrationStatistics;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/**
 * The child JVM of {@link RegistrationLimitDeviceTest}, started under a lowered memory lock limit
 * and without {@code CAP_IPC_LOCK}: it reports, one {@value #PREFIX} line each, whether it holds
 * {@code CAP_IPC_LOCK}, the limit and default budget its cache read, and how a registration
 * above the limit (unlimited budget: the kernel refuses) and one above the default budget with
 * everything leased (the budget refuses) were refused. Exits 0 when it ran to the end.
 */
final class RegistrationLimitChild {
    static final String PREFIX = "registration-limit: ";
    private static final Set<AccessFlag> LOCAL = EnumSet.of(AccessFlag.LOCAL_WRITE);
    /** CAP_IPC_LOCK's bit in /proc/self/status's CapEff. */
    private static final int CAP_IPC_LOCK = 14;

    private RegistrationLimitChild() {}

    public static void main(String[] args) throws IOException {
        TestDevice device = new TestDevice(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        long aboveLimit = Long.parseLong(args[3]);
        say("cap_ipc_lock " + holdsIpcLock());
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain();
                Arena arena = Arena.ofShared()) {
            try (RegistrationCache cache = RegistrationCache.open(pd, LOCAL)) {
                RegistrationStatistics stats = cache.statistics();
                say("memlock " + stats.memlockLimitBytes() + " budget " + stats.budgetBytes());
                // The default budget (half the limit) leased whole, then one page more.
                try (RegistrationLease half = cache.acquire(arena.allocate(stats.budgetBytes(), 4096))) {
                    cache.acquire(arena.allocate(4096, 4096)).close();
                    say("budget-accepted");
                } catch (RegistrationLimitException e) {
                    say("budget-refused verb " + e.verb() + " errno " + e.errno() + " message " + e.getMessage());
                }
            }
            try (RegistrationCache cache = RegistrationCache.open(pd, LOCAL, RegistrationBudget.unlimited())) {
                try (RegistrationLease lease = cache.acquire(arena.allocate(aboveLimit, 4096))) {
                    say("kernel-accepted " + lease.region());
                } catch (RegistrationLimitException e) {
                    say("kernel-refused verb " + e.verb() + " errno " + e.errno() + " message " + e.getMessage());
                }
            }
        }
        say("done");
        System.out.flush();
        System.exit(0);
    }

    private static void say(String line) {
        System.out.println(PREFIX + line.replace('\n', ' '));
    }

    /** Whether this process's effective capabilities hold CAP_IPC_LOCK. */
    static boolean holdsIpcLock() throws IOException {
        String effective = statusField("CapEff:");
        return (Long.parseUnsignedLong(effective, 16) & (1L << CAP_IPC_LOCK)) != 0;
    }

    /** This process's real user id. */
    static int uid() throws IOException {
        return Integer.parseInt(statusField("Uid:").split("\\s+")[0]);
    }

    private static String statusField(String name) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(line -> line.startsWith(name))
                .map(line -> line.substring(name.length()).trim()).findFirst()
                .orElseThrow(() -> new IOException("no " + name + " in /proc/self/status"));
    }
}
