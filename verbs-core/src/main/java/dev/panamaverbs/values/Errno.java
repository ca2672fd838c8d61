package dev.panamaverbs.values;

import java.util.HashMap;
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

    /** Each line: the value, the symbolic name and glibc's text, as {@code strerror} words it. */
    private static final String TEXTS = """
            1 EPERM Operation not permitted
            2 ENOENT No such file or directory
            3 ESRCH No such process
            4 EINTR Interrupted system call
            5 EIO Input/output error
            6 ENXIO No such device or address
            7 E2BIG Argument list too long
            9 EBADF Bad file descriptor
            11 EAGAIN Resource temporarily unavailable
            12 ENOMEM Cannot allocate memory
            13 EACCES Permission denied
            14 EFAULT Bad address
            16 EBUSY Device or resource busy
            17 EEXIST File exists
            19 ENODEV No such device
            22 EINVAL Invalid argument
            23 ENFILE Too many open files in system
            24 EMFILE Too many open files
            28 ENOSPC No space left on device
            34 ERANGE Numerical result out of range
            38 ENOSYS Function not implemented
            61 ENODATA No data available
            71 EPROTO Protocol error
            75 EOVERFLOW Value too large for defined data type
            95 EOPNOTSUPP Operation not supported
            97 EAFNOSUPPORT Address family not supported by protocol
            99 EADDRNOTAVAIL Cannot assign requested address
            101 ENETUNREACH Network is unreachable
            104 ECONNRESET Connection reset by peer
            110 ETIMEDOUT Connection timed out
            111 ECONNREFUSED Connection refused
            113 EHOSTUNREACH No route to host
            """;

    private static final Map<Integer, String[]> TABLE = parse(TEXTS);

    private Errno() {}

    private static Map<Integer, String[]> parse(String texts) {
        Map<Integer, String[]> table = new HashMap<>();
        for (String line : texts.strip().split("\n")) {
            String[] words = line.strip().split(" ", 3);
            table.put(Integer.parseInt(words[0]), new String[] {words[1], words[2]});
        }
        return Map.copyOf(table);
    }

    /**
     * The symbolic name and glibc's text of an errno, as {@link dev.panamaverbs.VerbsException}'s message shows it
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
