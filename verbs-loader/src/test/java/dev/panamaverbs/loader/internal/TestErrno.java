package dev.panamaverbs.loader.internal;

import dev.panamaverbs.gateway.OpsTable;

/** The errno values the loader tests hand to the fake provider (Linux values; the API's Errno is not visible here). */
public final class TestErrno {
    private TestErrno() {}

    /** The one the gateway itself answers for an op the provider left NULL. */
    public static final int EOPNOTSUPP = OpsTable.EOPNOTSUPP;
    public static final int ENOENT = 2;
    public static final int EIO = 5;
    public static final int EBADF = 9;
    public static final int ENOMEM = 12;
    public static final int EFAULT = 14;
    public static final int EINVAL = 22;
    public static final int ENODATA = 61;
}
