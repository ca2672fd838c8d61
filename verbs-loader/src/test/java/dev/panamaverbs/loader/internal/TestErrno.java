package dev.panamaverbs.loader.internal;

/** The errno values the loader tests hand to the fake provider (Linux values; the API's Errno is not visible here). */
final class TestErrno {
    static final int ENOENT = 2;
    static final int EIO = 5;
    static final int EBADF = 9;
    static final int ENOMEM = 12;
    static final int EFAULT = 14;
    static final int EINVAL = 22;
    static final int ENODATA = 61;
    static final int EOPNOTSUPP = 95;

    private TestErrno() {}
}
