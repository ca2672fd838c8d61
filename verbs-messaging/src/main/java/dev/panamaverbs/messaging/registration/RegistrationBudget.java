package dev.panamaverbs.messaging.registration;

/**
 * How many bytes a {@link RegistrationCache} may keep registered at once, counted in whole 4 KiB
 * pages as the kernel pins them. The {@linkplain #defaultBudget() default} is one half of the
 * memory lock limit ({@code RLIMIT_MEMLOCK}, {@code ulimit -l}) read when the cache opens,
 * leaving the other half for the process's other registrations (message buffers, receive pools);
 * with the limit {@code unlimited} (or unreadable) the default sets no budget.
 */
public final class RegistrationBudget {
    /** No budget: {@link #bytes} for "unlimited". */
    private static final long NONE = Long.MAX_VALUE;

    /** A fixed budget in bytes, or {@link #NONE}; ignored when {@link #share} is above 0. */
    private final long bytes;
    /** The share of the memory lock limit, in (0, 1], or 0 for a fixed budget. */
    private final double share;
    /** The budget when the share applies but the limit is unlimited or unknown. */
    private final long whenUnlimited;

    private RegistrationBudget(long bytes, double share, long whenUnlimited) {
        this.bytes = bytes;
        this.share = share;
        this.whenUnlimited = whenUnlimited;
    }

    /**
     * The default: one half of the memory lock limit; no budget when the limit is unlimited or
     * cannot be read.
     *
     * @return the default budget
     */
    public static RegistrationBudget defaultBudget() {
        return shareOfMemlock(0.5, NONE);
    }

    /**
     * A share of the memory lock limit read when the cache opens.
     *
     * @param share the share, above 0 and at most 1 (e.g. 0.5 for one half)
     * @param bytesWhenUnlimited the budget when the limit is unlimited or cannot be read
     *        ({@code Long.MAX_VALUE}: none)
     * @return the budget
     * @throws IllegalArgumentException for a share outside (0, 1] or a byte count not above 0
     */
    public static RegistrationBudget shareOfMemlock(double share, long bytesWhenUnlimited) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("registration budget: share " + share + " of the memory lock limit is not in (0, 1]");
        }
        requirePositive(bytesWhenUnlimited);
        return new RegistrationBudget(0, share, bytesWhenUnlimited);
    }

    /**
     * A fixed budget, whatever the memory lock limit (a budget above the limit only moves the
     * failure to the kernel's {@code ENOMEM}, reported as {@link RegistrationLimitException} too).
     *
     * @param bytes the budget in bytes, above 0
     * @return the budget
     * @throws IllegalArgumentException for a byte count not above 0
     */
    public static RegistrationBudget ofBytes(long bytes) {
        requirePositive(bytes);
        return new RegistrationBudget(bytes, 0, NONE);
    }

    /**
     * No budget: the cache evicts nothing on its own, and only the kernel's memory lock limit
     * bounds it.
     *
     * @return the unlimited budget
     */
    public static RegistrationBudget unlimited() {
        return new RegistrationBudget(NONE, 0, NONE);
    }

    /**
     * The budget in bytes under the memory lock limit {@code memlockLimit}.
     *
     * @param memlockLimit the limit in bytes, {@link RegistrationMemlock#UNLIMITED} or
     *        {@link RegistrationMemlock#UNKNOWN}
     * @return the budget in bytes, {@code Long.MAX_VALUE} for none
     */
    long resolve(long memlockLimit) {
        if (share == 0) {
            return bytes;
        }
        if (memlockLimit == RegistrationMemlock.UNLIMITED || memlockLimit == RegistrationMemlock.UNKNOWN) {
            return whenUnlimited;
        }
        return (long) (memlockLimit * share);
    }

    private static void requirePositive(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("registration budget: " + bytes + " bytes is not above 0");
        }
    }

    @Override
    public String toString() {
        if (share > 0) {
            return "RegistrationBudget[" + share + " of RLIMIT_MEMLOCK, "
                    + (whenUnlimited == NONE ? "none" : whenUnlimited + " bytes") + " when unlimited]";
        }
        return "RegistrationBudget[" + (bytes == NONE ? "none" : bytes + " bytes") + "]";
    }
}
