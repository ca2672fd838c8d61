package dev.panamaverbs.gateway;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether a device's {@code post_send}, {@code post_recv} and {@code post_srq_recv} may be called
 * through critical downcalls (no thread-state transition): only for the providers whose posts,
 * read in rdma-core's sources, never make a system call or wait (docs/critical-downcalls.md has
 * the table and the reading). rxe and siw ring their doorbell with a system call; every provider
 * not in the table keeps the plain downcall.
 *
 * <p>A provider is identified by two facts of the device itself, and both must name it: the
 * kernel driver bound to it (the last element of {@code /sys/class/infiniband/<name>/device/driver})
 * and the {@code vendor_id} its provider reports. Device names are renamed by udev; the driver
 * alone is not enough because an rxe device's {@code device} link may be its network device's
 * parent (a ConnectX port's {@code mlx5_core}), while rxe's vendor id stays {@code 0xffffff}.
 *
 * <p>The system property {@value #PROPERTY} overrides the table: {@code false}/{@code off} keeps
 * every device plain, {@code true}/{@code on} makes every device critical (the caller warns),
 * unset or {@code auto} lets the table decide.
 */
public final class ProviderPosts {
    /** The system property that turns critical posts off or forces them on. */
    public static final String PROPERTY = "panamaverbs.criticalPosts";

    /** The providers whose posts never make a system call or wait: kernel driver, vendor id. */
    private static final Provider[] TABLE = {
        new Provider("mlx5", "mlx5_core", 0x02c9),
        new Provider("efa", "efa", 0x1d0f),
    };

    private ProviderPosts() {}

    /**
     * A provider of the table.
     *
     * @param name     the provider library's name ({@code libNAME-rdmav*.so})
     * @param driver   the kernel driver bound to its devices
     * @param vendorId its {@code vendor_id}
     */
    public record Provider(String name, String driver, long vendorId) {}

    /** What the property asks for. */
    public enum Mode {
        /** The table decides (property unset, empty or {@code auto}). */
        AUTO,
        /** Every device posts through the plain downcall. */
        OFF,
        /** Every device posts through the critical downcall. */
        ON
    }

    /**
     * The mode a value of {@value #PROPERTY} asks for.
     *
     * @param value the property's value, or null when unset
     * @return the mode
     * @throws IllegalArgumentException for any other value, naming the property
     */
    public static Mode mode(String value) {
        if (value == null) {
            return Mode.AUTO;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "", "auto" -> Mode.AUTO;
            case "false", "off" -> Mode.OFF;
            case "true", "on" -> Mode.ON;
            default -> throw new IllegalArgumentException(PROPERTY + "=" + value
                    + ": expected auto, true/on (force critical posts) or false/off (plain posts)");
        };
    }

    /**
     * The table's provider with this driver and vendor id, or null (either unknown, or they
     * disagree).
     *
     * @param driver   the kernel driver, or null when unreadable
     * @param vendorId the device's {@code vendor_id}
     * @return the provider, or null
     */
    public static Provider provider(String driver, long vendorId) {
        if (driver == null) {
            return null;
        }
        for (Provider p : TABLE) {
            if (p.driver().equals(driver) && p.vendorId() == vendorId) {
                return p;
            }
        }
        return null;
    }

    /**
     * Whether posts to queues of this device go through the critical downcalls.
     *
     * @param mode     the property's mode ({@link #mode})
     * @param driver   the kernel driver ({@link #driver}), or null
     * @param vendorId the device's {@code vendor_id}
     * @return true for {@link Mode#ON}, false for {@link Mode#OFF}, else whether the table has it
     */
    public static boolean critical(Mode mode, String driver, long vendorId) {
        return switch (mode) {
            case ON -> true;
            case OFF -> false;
            case AUTO -> provider(driver, vendorId) != null;
        };
    }

    /**
     * The kernel driver bound to device {@code name}: the file name the
     * {@code <root>/<name>/device/driver} link points to, or null when there is none (a software
     * device) or it cannot be read.
     *
     * @param root the sysfs class directory ({@code /sys/class/infiniband})
     * @param name the device's name
     * @return the driver's name, or null
     */
    public static String driver(Path root, String name) {
        try {
            Path link = root.resolve(name).resolve("device").resolve("driver");
            Path target = Files.readSymbolicLink(link);
            Path file = target.getFileName();
            return file == null ? null : file.toString();
        } catch (IOException | UnsupportedOperationException | SecurityException | java.nio.file.InvalidPathException e) {
            return null;
        }
    }
}
