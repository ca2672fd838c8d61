package dev.panamaverbs.messaging.registration;

/**
 * A snapshot of a {@link RegistrationCache}'s counters ({@link RegistrationCache#statistics()}).
 *
 * @param hits acquisitions served by a registration already in the cache
 * @param misses acquisitions that registered ({@code ibv_reg_mr}) a new range
 * @param evictions registrations the cache deregistered to stay under its budget (or to make
 *        room after the kernel's {@code ENOMEM}), or because their memory's arena had closed
 * @param registrations registrations in the cache now
 * @param leased registrations held by at least one open {@link RegistrationLease} now
 * @param registeredBytes the bytes registered now, in whole 4 KiB pages as the kernel pins them
 * @param budgetBytes the budget in bytes; {@link #UNLIMITED} for none
 * @param memlockLimitBytes the memory lock limit ({@code RLIMIT_MEMLOCK}, soft) read when the
 *        cache opened; {@link #UNLIMITED}, or {@link #UNKNOWN} when it could not be read
 */
public record RegistrationStatistics(long hits, long misses, long evictions, int registrations, int leased,
        long registeredBytes, long budgetBytes, long memlockLimitBytes) {
    /** A budget or limit that is unlimited. */
    public static final long UNLIMITED = RegistrationMemlock.UNLIMITED;
    /** A memory lock limit that could not be read. */
    public static final long UNKNOWN = RegistrationMemlock.UNKNOWN;
}
