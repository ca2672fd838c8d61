package dev.panamaverbs;

import java.util.Map;

/**
 * Linux errno values the verbs report, with their symbolic names and glibc's texts. A fixed
 * table rather than {@code strerror}: describing an error must work even when native access is
 * what failed.
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOSPC = 28;
    public static final int ERANGE = 34;
    public static final int ENOSYS = 38;
    public static final int ENODATA = 61;
    public static final int EPROTO = 71;
    public static final int EOVERFLOW = 75;
    public static final int EOPNOTSUPP = 95;
    public static final int ENETUNREACH = 101;
    public static final int ECONNRESET = 104;
    public static final int ETIMEDOUT = 110;
    public static final int ECONNREFUSED = 111;
    public static final int EHOSTUNREACH = 113;

    private static final Map<Integer, String[]> TABLE = Map.ofEntries(
            Map.entry(EPERM, new String[] {"EPERM", "Operation not permitted"}),
            Map.entry(ENOENT, new String[] {"ENOENT", "No such file or directory"}),
            Map.entry(3, new String[] {"ESRCH", "No such process"}),
            Map.entry(EINTR, new String[] {"EINTR", "Interrupted system call"}),
            Map.entry(EIO, new String[] {"EIO", "Input/output error"}),
            Map.entry(6, new String[] {"ENXIO", "No such device or address"}),
            Map.entry(7, new String[] {"E2BIG", "Argument list too long"}),
            Map.entry(EBADF, new String[] {"EBADF", "Bad file descriptor"}),
            Map.entry(EAGAIN, new String[] {"EAGAIN", "Resource temporarily unavailable"}),
            Map.entry(ENOMEM, new String[] {"ENOMEM", "Cannot allocate memory"}),
            Map.entry(EACCES, new String[] {"EACCES", "Permission denied"}),
            Map.entry(EFAULT, new String[] {"EFAULT", "Bad address"}),
            Map.entry(EBUSY, new String[] {"EBUSY", "Device or resource busy"}),
            Map.entry(EEXIST, new String[] {"EEXIST", "File exists"}),
            Map.entry(ENODEV, new String[] {"ENODEV", "No such device"}),
            Map.entry(EINVAL, new String[] {"EINVAL", "Invalid argument"}),
            Map.entry(23, new String[] {"ENFILE", "Too many open files in system"}),
            Map.entry(24, new String[] {"EMFILE", "Too many open files"}),
            Map.entry(ENOSPC, new String[] {"ENOSPC", "No space left on device"}),
            Map.entry(ERANGE, new String[] {"ERANGE", "Numerical result out of range"}),
            Map.entry(ENOSYS, new String[] {"ENOSYS", "Function not implemented"}),
            Map.entry(ENODATA, new String[] {"ENODATA", "No data available"}),
            Map.entry(EPROTO, new String[] {"EPROTO", "Protocol error"}),
            Map.entry(EOVERFLOW, new String[] {"EOVERFLOW", "Value too large for defined data type"}),
            Map.entry(EOPNOTSUPP, new String[] {"EOPNOTSUPP", "Operation not supported"}),
            Map.entry(97, new String[] {"EAFNOSUPPORT", "Address family not supported by protocol"}),
            Map.entry(99, new String[] {"EADDRNOTAVAIL", "Cannot assign requested address"}),
            Map.entry(ENETUNREACH, new String[] {"ENETUNREACH", "Network is unreachable"}),
            Map.entry(ECONNRESET, new String[] {"ECONNRESET", "Connection reset by peer"}),
            Map.entry(ETIMEDOUT, new String[] {"ETIMEDOUT", "Connection timed out"}),
            Map.entry(ECONNREFUSED, new String[] {"ECONNREFUSED", "Connection refused"}),
            Map.entry(EHOSTUNREACH, new String[] {"EHOSTUNREACH", "No route to host"}));

    private Errno() {}

    /** {@code "EINVAL: Invalid argument"} for 22; {@code "unknown error 999"} for a value not in the table. */
    public static String describe(int errno) {
        String[] entry = TABLE.get(errno);
        return entry == null ? "unknown error " + errno : entry[0] + ": " + entry[1];
    }

    /** The symbolic name, e.g. {@code EINVAL}, or {@code "errno N"}. */
    public static String name(int errno) {
        String[] entry = TABLE.get(errno);
        return entry == null ? "errno " + errno : entry[0];
    }

    /** True for the answers providers give when an operation is not implemented. */
    public static boolean meansUnsupported(int errno) {
        return errno == EOPNOTSUPP || errno == ENOSYS;
    }
}
