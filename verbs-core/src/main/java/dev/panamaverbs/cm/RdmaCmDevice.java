package dev.panamaverbs.cm;

import dev.panamaverbs.VerbsSetupException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The rdma_cm character device ({@code /dev/infiniband/rdma_cm}, made by the {@code rdma_ucm}
 * kernel module) that {@code rdma_create_event_channel} opens: librdmacm loads without it, and
 * then every identifier fails with ENODEV. Checked by opening it read-write as librdmacm does
 * (plain Java file I/O, no native call), on every ask: the module may be loaded later.
 *
 * <p>{@value #PATH_PROPERTY} names another path, for tests that make the device absent.
 */
final class RdmaCmDevice {
    /** The device librdmacm opens. */
    static final String DEFAULT_PATH = "/dev/infiniband/rdma_cm";
    /** System property naming another device path (tests make the device absent with it). */
    static final String PATH_PROPERTY = "panamaverbs.rdmacm.device";

    private RdmaCmDevice() {}

    /** The device path: {@link #PATH_PROPERTY}, else {@link #DEFAULT_PATH}. */
    static Path path() {
        String configured = System.getProperty(PATH_PROPERTY);
        return Path.of(configured == null || configured.isBlank() ? DEFAULT_PATH : configured.strip());
    }

    /** Why the device cannot be opened (what to do about it), empty when it can. Never throws. */
    static Optional<String> problem() {
        Path device = path();
        try {
            FileChannel.open(device, StandardOpenOption.READ, StandardOpenOption.WRITE).close();
            return Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.of(device + " is missing: load the rdma_ucm kernel module (modprobe rdma_ucm)");
        } catch (AccessDeniedException e) {
            return Optional.of(device + " cannot be opened read-write by this user (permission denied):"
                    + " rdma-core's udev rules give it mode 0666; check them, or the device's owner and mode");
        } catch (IOException | RuntimeException e) {
            return Optional.of(device + " cannot be opened: " + e);
        }
    }

    /** The setup exception for {@code problem}, as connect and listen throw it. */
    static VerbsSetupException missing(String problem) {
        return new VerbsSetupException("rdma_cm cannot be used: " + problem);
    }
}
