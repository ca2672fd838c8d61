package dev.panamaverbs.testkit;

import java.util.Objects;

/**
 * The RDMA device a device test runs against, as configured for this run.
 *
 * @param name     the libibverbs device name, e.g. {@code rxe0}
 * @param port     the port number (1-based, as in verbs)
 * @param gidIndex the GID table index for RoCE addressing: the one configured, else the port's
 *                 RoCE v2 IPv4-mapped GID chosen by type (index 1 on SoftRoCE, where index 0 is
 *                 the link-local IPv6 one), else 0
 */
public record TestDevice(String name, int port, int gidIndex) {
    /** Checks the components. */
    public TestDevice {
        Objects.requireNonNull(name, "name");
        if (port < 1 || port > 255) {
            throw new IllegalArgumentException("port must be 1..255, was " + port);
        }
        if (gidIndex < 0) {
            throw new IllegalArgumentException("gidIndex must be >= 0, was " + gidIndex);
        }
    }
}
