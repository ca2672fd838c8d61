package dev.panamaverbs;

import dev.panamaverbs.internal.Availability;
import dev.panamaverbs.internal.BuildInfo;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.ForkStatus;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import dev.panamaverbs.loader.internal.LibIbverbs;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The entry point: whether libibverbs is usable here, and the RDMA devices it lists.
 *
 * <pre>{@code
 * if (Verbs.isAvailable()) {
 *     for (Device device : Verbs.devices()) {
 *         try (Context context = device.open()) {
 *             System.out.println(device.name() + " " + context.queryPort(1).state());
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Which public method wraps each function of {@code verbs.h} (exported and {@code static
 * inline}), which functions are only internal steps, and which are not offered and why: the
 * verb coverage table, {@code docs/verb-coverage.md} in the source repository, kept true by a
 * unit test.
 *
 * <p>On JDK 17 to 21 the jar's Java 17 base layer answers instead of this class:
 * {@link #isAvailable()} is false and {@link #unavailabilityCause()} says "needs JDK 22 or newer
 * (running N)"; a build for Java 17 sees only that probe ({@code docs/multi-release.md} in the
 * source repository shows the fallback pattern).
 */
public final class Verbs {
    static {
        // The other packages' way into the resource tree: CoreAccess.get() initialises this class
        // first, so it is installed before any of them can reach a resource. Installed here, at
        // the top of the API, so that the resources below name no bridge that names them.
        CoreBridge.install();
    }

    private Verbs() {}

    /**
     * True when libibverbs was loaded and every required symbol resolved. Never throws.
     *
     * @return true when libibverbs was loaded and every required symbol resolved
     */
    public static boolean isAvailable() {
        return LibIbverbs.LIBRARY.isAvailable();
    }

    /**
     * Why libibverbs is unavailable (library not found, symbol missing, native access not
     * enabled, disabled by {@code -Dpanamaverbs.disable=true}; on JDK 17 to 21 "needs JDK 22 or
     * newer (running N)"); empty when available.
     *
     * @return why libibverbs is unavailable; empty when available
     */
    public static Optional<String> unavailabilityCause() {
        return LibIbverbs.LIBRARY.unavailabilityCause();
    }

    /**
     * Why libibverbs is unavailable, as a throwable to log, wrap or rethrow (as Netty's transports
     * offer theirs): a {@link VerbsUnavailableException} whose message is
     * {@link #unavailabilityCause()} and whose cause is what the probe caught, when something threw
     * (an {@code Error} from the linker, say). Empty when available. Never throws.
     *
     * @return the unavailability as an exception, empty when available
     */
    public static Optional<VerbsUnavailableException> unavailabilityException() {
        return Availability.verbsUnavailable();
    }

    /**
     * Returns normally when libibverbs is available.
     *
     * @throws dev.panamaverbs.VerbsUnavailableException with the cause otherwise
     */
    public static void ensureAvailable() {
        Availability.ensureVerbs();
    }

    /**
     * The optional libibverbs functions found (newer verbs); empty when unavailable.
     *
     * @return the optional libibverbs functions found (newer verbs)
     */
    public static Set<Capability> capabilities() {
        EnumSet<Capability> found = EnumSet.noneOf(Capability.class);
        for (Capability capability : Capability.values()) {
            if (capability.isPresent()) {
                found.add(capability);
            }
        }
        return Collections.unmodifiableSet(found);
    }

    /**
     * The libibverbs file or soname that was (or would have been) opened.
     *
     * @return the libibverbs file or soname that was (or would have been) opened
     */
    public static String libraryPath() {
        return LibIbverbs.LIBRARY.libraryPath();
    }

    /**
     * The RDMA devices on this host ({@code ibv_get_device_list}, read eagerly, then
     * {@code ibv_free_device_list}). Empty when the kernel has no RDMA support, and empty when
     * libibverbs is unavailable (no exception: a caller that probes, then falls back, needs none;
     * {@link #unavailabilityCause()} says why). {@link #firstDevice()} throws instead.
     *
     * @throws dev.panamaverbs.VerbsException when listing fails for another reason (e.g. EPERM)
     * @return the RDMA devices on this host, an unmodifiable list; empty when there are none or
     *         libibverbs is unavailable
     */
    public static List<Device> devices() {
        if (!isAvailable()) {
            return List.of();
        }
        return Device.listed();
    }

    /**
     * The first device {@code ibv_get_device_list} lists: what a program that just wants "the RDMA
     * device of this host" opens. Unlike {@code devices().getFirst()}, it says what is missing.
     *
     * @return the first device listed
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs is unavailable (the cause
     *         says why: not installed, native access not granted, turned off)
     * @throws dev.panamaverbs.VerbsSetupException when libibverbs lists no device (the message says
     *         how devices are usually made to appear)
     */
    public static Device firstDevice() {
        ensureAvailable();
        List<Device> devices = devices();
        if (devices.isEmpty()) {
            throw VerbsSetupException.noDevice();
        }
        return devices.getFirst();
    }

    /**
     * The panama-verbs version, from the {@code Implementation-Version} of the verbs-core jar's
     * manifest (e.g. {@code 0.1.0}); {@code "unknown (not run from the verbs-core jar)"} when the
     * classes do not come from a jar, as in an IDE or a build tree.
     *
     * @return the library's version
     */
    public static String version() {
        return BuildInfo.version();
    }

    /**
     * The device named {@code name} (e.g. {@code rxe0}), if listed; empty, as {@link #devices()},
     * when libibverbs is unavailable.
     *
     * @param name the device's name, as {@code ibv_get_device_name} gives it
     * @return the device named {@code name}, empty when not listed
     * @throws IllegalArgumentException when {@code name} is null or blank
     */
    public static Optional<Device> device(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("ibv_get_device_list: device name must not be empty");
        }
        return devices().stream().filter(device -> device.name().equals(name)).findFirst();
    }

    /**
     * {@code ibv_fork_init}: makes registered memory fork-safe where the kernel does not already
     * (marks registered ranges {@code MADV_DONTFORK}). Call it before any memory is registered:
     * afterwards libibverbs may refuse it with EINVAL, even where the kernel makes it unneeded
     * ({@link ForkStatus#UNNEEDED}; rdma-core in the project's rxe VM does). The environment
     * variables {@code RDMAV_FORK_SAFE} / {@code IBV_FORK_SAFE} ask for it at load.
     *
     * @throws VerbsUnavailableException when libibverbs is unavailable
     * @throws VerbsException if the verb fails (EINVAL: too late, memory is registered already)
     */
    public static void forkInit() {
        ensureAvailable();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            NativeCalls.checkReturnedErrno("ibv_fork_init", IbverbsCalls.ibv_fork_init(state));
        }
    }

    /**
     * {@code ibv_is_fork_initialized}: whether fork protection is on, off, or not needed.
     *
     * @return the fork status
     * @throws VerbsUnavailableException when libibverbs is unavailable
     * @throws VerbsUnsupportedException when libibverbs is older than 1.13 ({@link Capability#IS_FORK_INITIALIZED})
     */
    public static ForkStatus forkStatus() {
        ensureAvailable();
        Capability.IS_FORK_INITIALIZED.require("ibv_is_fork_initialized");
        try (Arena arena = Arena.ofConfined()) {
            return ForkStatus.of(IbverbsCalls.ibv_is_fork_initialized(
                    CallState.allocate(arena)));
        }
    }
}
