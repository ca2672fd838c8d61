package dev.panamaverbs.loader.internal;

/** The errno values the loader tests hand to the fake provider (Linux values; the API's Errno is not visible here). */
public final class TestErrno {
    public static final int ENOENT = 2;
    public static final int EIO = 5;
    public static final int EBADF = 9;
    public static final int ENOMEM = 12;
    public static final int EFAULT = 14;
    public static final int EINVAL = 22;
    public static final int ENODATA = 61;
    public static final int EOPNOTSUPP = 95;

    private TestErrno() {}
}
