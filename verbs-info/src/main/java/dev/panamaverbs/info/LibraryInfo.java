package dev.panamaverbs.info;

import dev.panamaverbs.Capability;
import dev.panamaverbs.cm.RdmaCm;
import dev.panamaverbs.Verbs;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The library's side: panama-verbs' version, whether libibverbs (and librdmacm) can be used here
 * and why not, and which optional capabilities the loaded libibverbs has.
 *
 * @param version           {@link Verbs#version()}
 * @param available         {@link Verbs#isAvailable()}
 * @param libraryPath       {@link Verbs#libraryPath()}, when available
 * @param cause             {@link Verbs#unavailabilityCause()}
 * @param capabilities      present capabilities ({@link Verbs#capabilities()})
 * @param missing           capabilities the loaded library lacks
 * @param rdmaCmAvailable   {@link RdmaCm#isAvailable()}
 * @param rdmaCmCause       {@link RdmaCm#unavailabilityCause()}
 * @param rdmaCmDevice      {@link RdmaCm#devicePath()}
 * @param rdmaCmDeviceCause {@link RdmaCm#deviceUnavailabilityCause()}
 */
record LibraryInfo(String version, boolean available, Optional<String> libraryPath, Optional<String> cause,
                   List<Capability> capabilities, List<Capability> missing,
                   boolean rdmaCmAvailable, Optional<String> rdmaCmCause,
                   String rdmaCmDevice, Optional<String> rdmaCmDeviceCause) {
    LibraryInfo {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(libraryPath, "libraryPath");
        Objects.requireNonNull(cause, "cause");
        capabilities = List.copyOf(capabilities);
        missing = List.copyOf(missing);
        Objects.requireNonNull(rdmaCmCause, "rdmaCmCause");
        Objects.requireNonNull(rdmaCmDevice, "rdmaCmDevice");
        Objects.requireNonNull(rdmaCmDeviceCause, "rdmaCmDeviceCause");
    }

    /**
     * librdmacm's own state, apart from libibverbs' and the device's: {@code null} when it
     * loaded, else why not (just "needs libibverbs" when that is the reason, not its cause again).
     */
    String librdmacmProblem() {
        if (!available) {
            return "needs libibverbs, which is not available (above)";
        }
        if (rdmaCmAvailable || rdmaCmCause.equals(rdmaCmDeviceCause)) {
            return null;
        }
        return rdmaCmCause.orElse("?");
    }

    /** The library as this process sees it. */
    static LibraryInfo current() {
        boolean available = Verbs.isAvailable();
        List<Capability> present = List.copyOf(Verbs.capabilities());
        List<Capability> missing = java.util.Arrays.stream(Capability.values()).filter(c -> !present.contains(c)).toList();
        return new LibraryInfo(Verbs.version(), available,
                available ? Optional.of(Verbs.libraryPath()) : Optional.empty(),
                Verbs.unavailabilityCause(), present, available ? missing : List.of(),
                RdmaCm.isAvailable(), RdmaCm.unavailabilityCause(),
                RdmaCm.devicePath(), RdmaCm.deviceUnavailabilityCause());
    }
}
