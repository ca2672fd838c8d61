package dev.panamaverbs;

import java.util.Map;

/**
 * Linux errno values the verbs report, with their symbolic names and glibc's texts. A fixed
 * table rather than {@code strerror}: describing an error must work even when native access is
 * what failed.
 */
public final class Errno {
    /** {@code EPERM}: Operation not permitted. */
    public static final int EPERM = 1;
    /** {@code ENOENT}: No such file or directory. */
    public static final int ENOENT = 2;
    /** {@code EINTR}: Interrupted system call. */
    public static final int EINTR = 4;
    /** {@code EIO}: Input/output error. */
    public static final int EIO = 5;
    /** {@code EBADF}: Bad file descriptor. */
    public static final int EBADF = 9;
    /** {@code EAGAIN}: Resource temporarily unavailable. */
    public static final int EAGAIN = 11;
    /** {@code ENOMEM}: Cannot allocate memory. */
    public static final int ENOMEM = 12;
    /** {@code EACCES}: Permission denied. */
    public static final int EACCES = 13;
    /** {@code EFAULT}: Bad address. */
    public static final int EFAULT = 14;
    /** {@code EBUSY}: Device or resource busy. */
    public static final int EBUSY = 16;
    /** {@code EEXIST}: File exists. */
    public static final int EEXIST = 17;
    /** {@code ENODEV}: No such device. */
    public static final int ENODEV = 19;
    /** {@code EINVAL}: Invalid argument. */
    public static final int EINVAL = 22;
    /** {@code ENOSPC}: No space left on device. */
    public static final int ENOSPC = 28;
    /** {@code ERANGE}: Numerical result out of range. */
    public static final int ERANGE = 34;
    /** {@code ENOSYS}: Function not implemented. */
    public static final int ENOSYS = 38;
    /** {@code ENODATA}: No data available. */
    public static final int ENODATA = 61;
    /** {@code EPROTO}: Protocol error. */
    public static final int EPROTO = 71;
    /** {@code EOVERFLOW}: Value too large for defined data type. */
    public static final int EOVERFLOW = 75;
    /** {@code EOPNOTSUPP}: Operation not supported. */
    public static final int EOPNOTSUPP = 95;
    /** {@code ENETUNREACH}: Network is unreachable. */
    public static final int ENETUNREACH = 101;
    /** {@code ECONNRESET}: Connection reset by peer. */
    public static final int ECONNRESET = 104;
    /** {@code ETIMEDOUT}: Connection timed out. */
    public static final int ETIMEDOUT = 110;
    /** {@code ECONNREFUSED}: Connection refused. */
    public static final int ECONNREFUSED = 111;
    /** {@code EHOSTUNREACH}: No route to host. */
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

    /**
     * The symbolic name and glibc's text of an errno, as {@link VerbsException}'s message shows it
     * in parentheses.
     *
     * @param errno a Linux errno value
     * @return {@code "EINVAL: Invalid argument"} for 22; {@code "unknown error 999"} for a value
     *         not in the table
     */
    public static String describe(int errno) {
        String[] entry = TABLE.get(errno);
        return entry == null ? "unknown error " + errno : entry[0] + ": " + entry[1];
    }

    /**
     * The symbolic name, e.g. {@code EINVAL}, or {@code "errno N"}.
     *
     * @param errno the errno value
     * @return the symbolic name, e.g
     */
    public static String name(int errno) {
        String[] entry = TABLE.get(errno);
        return entry == null ? "errno " + errno : entry[0];
    }

    /**
     * True for the answers providers give when an operation is not implemented.
     *
     * @param errno the errno value
     * @return true for the answers providers give when an operation is not implemented
     */
    public static boolean meansUnsupported(int errno) {
        return errno == EOPNOTSUPP || errno == ENOSYS;
    }
}
