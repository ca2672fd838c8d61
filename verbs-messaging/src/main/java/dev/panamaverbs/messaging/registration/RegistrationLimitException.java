package dev.panamaverbs.messaging.registration;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.messaging.MessagingException;

/**
 * A registration the memory lock limit refused: either the {@link RegistrationCache}'s budget
 * cannot take the range because every registration in it is leased (in flight, never evicted),
 * or the kernel refused {@code ibv_reg_mr} with {@code ENOMEM} or {@code EAGAIN}, which for a
 * process without {@code CAP_IPC_LOCK} means the pages would exceed {@code RLIMIT_MEMLOCK}. The
 * message names the limit in bytes and how to raise it: {@code ulimit -l}, {@code LimitMEMLOCK=}
 * for a systemd service, {@code docker run --ulimit memlock=-1}, and on Kubernetes the container
 * runtime's memlock limit or the {@code IPC_LOCK} capability.
 *
 * <p>{@link #verb()} and {@link #errno()} are those of the refused verb ({@code ibv_reg_mr} and
 * {@code ENOMEM}/{@code EAGAIN}, the verb's exception the cause), or {@code null} and 0 when the
 * cache's own budget refused before any verb.
 */
public final class RegistrationLimitException extends MessagingException {
    private static final long serialVersionUID = 1L;

    /** How to raise the memory lock limit, in every setting we know. */
    static final String FIX = "raise the memory lock limit: ulimit -l <KiB> or ulimit -l unlimited in the shell"
            + " (memlock in /etc/security/limits.conf), LimitMEMLOCK=infinity for a systemd service,"
            + " docker run --ulimit memlock=-1, on Kubernetes the container runtime's memlock limit"
            + " (e.g. LimitMEMLOCK=infinity in containerd's service) or the IPC_LOCK capability";

    /** The refused verb, or null for the cache's own budget. */
    private final String refusedVerb;
    /** The verb's errno, or 0. */
    private final int refusedErrno;
    /** The memory lock limit read when the cache opened. */
    private final long memlockLimitBytes;
    /** The cache's budget. */
    private final long budgetBytes;
    /** The bytes the refused registration asked for. */
    private final long requestedBytes;

    private RegistrationLimitException(String message, String verb, int errno, long memlockLimitBytes,
            long budgetBytes, long requestedBytes, Throwable cause) {
        super(message, cause);
        this.refusedVerb = verb;
        this.refusedErrno = errno;
        this.memlockLimitBytes = memlockLimitBytes;
        this.budgetBytes = budgetBytes;
        this.requestedBytes = requestedBytes;
    }

    /** The budget cannot take {@code requested} more bytes: {@code leasedBytes} of it are leased. */
    static RegistrationLimitException budgetExhausted(long requested, long registered, long leasedBytes, long budget,
            long memlock) {
        String message = "registration cache: " + requested + " more bytes do not fit its budget of " + budget
                + " bytes (" + registered + " registered, " + leasedBytes + " of them leased, in flight and never"
                + " evicted); close leases sooner or give the cache a larger budget (RegistrationBudget), which"
                + " the memory lock limit bounds (RLIMIT_MEMLOCK " + RegistrationMemlock.describe(memlock)
                + ", the default budget is one half of it): to " + FIX;
        return new RegistrationLimitException(message, null, 0, memlock, budget, requested, null);
    }

    /** The kernel refused the verb with ENOMEM or EAGAIN. */
    static RegistrationLimitException kernelRefused(VerbsException cause, long requested, long registered, long budget,
            long memlock) {
        return kernelRefused(cause, requested, "the registration cache holds " + registered + " bytes, ", budget, memlock);
    }

    private static RegistrationLimitException kernelRefused(VerbsException cause, long requested, String held, long budget,
            long memlock) {
        String message = cause.verb() + " refused " + requested + " bytes with errno " + cause.errno()
                + " (" + Errno.name(cause.errno()) + "): the pinned pages would exceed the"
                + " memory lock limit RLIMIT_MEMLOCK of " + RegistrationMemlock.describe(memlock)
                + " (" + held + "other registrations of the process count too; root with CAP_IPC_LOCK is exempt,"
                + " except on siw in Linux 6.1, which counts every process's pinned pages); " + FIX;
        return new RegistrationLimitException(message, cause.verb(), cause.errno(), memlock, budget, requested, cause);
    }

    /**
     * Whether {@code failure} is the kernel's memory lock refusal: {@code ibv_reg_mr} (or one of its
     * variants) failed with {@code ENOMEM} or {@code EAGAIN}.
     */
    static boolean isMemlockRefusal(VerbsException failure) {
        return !(failure instanceof VerbsUnsupportedException) && failure.verb() != null
                && failure.verb().startsWith("ibv_reg_mr")
                && (failure.errno() == Errno.ENOMEM || failure.errno() == Errno.EAGAIN);
    }

    /**
     * What a registration made outside a {@link RegistrationCache} (a message channel's own buffer
     * pools) throws when its verb failed: this exception, naming {@code RLIMIT_MEMLOCK} (read now)
     * and how to raise it, when the kernel refused it for the memory lock limit; else
     * {@code failure} itself.
     *
     * @param failure the verb's exception
     * @param requested the bytes the registration asked for
     * @return the exception to throw: this one for a memory lock refusal, else {@code failure}
     */
    public static VerbsException ofRegistration(VerbsException failure, long requested) {
        if (!isMemlockRefusal(failure)) {
            return failure;
        }
        return kernelRefused(failure, requested, "", RegistrationStatistics.UNLIMITED, RegistrationMemlock.read());
    }

    /**
     * The refused verb ({@code ibv_reg_mr}), or {@code null} when the cache's own budget refused.
     *
     * @return the refused verb, or {@code null}
     */
    @Override
    public String verb() {
        return refusedVerb;
    }

    /**
     * The refused verb's errno ({@code ENOMEM} 12 or {@code EAGAIN} 11), or 0.
     *
     * @return the errno, or 0
     */
    @Override
    public int errno() {
        return refusedErrno;
    }

    /**
     * The memory lock limit read when the cache opened.
     *
     * @return the limit in bytes, {@link RegistrationStatistics#UNLIMITED} or {@link RegistrationStatistics#UNKNOWN}
     */
    public long memlockLimitBytes() {
        return memlockLimitBytes;
    }

    /**
     * The cache's budget.
     *
     * @return the budget in bytes, {@link RegistrationStatistics#UNLIMITED} for none
     */
    public long budgetBytes() {
        return budgetBytes;
    }

    /**
     * The bytes the refused registration asked for (whole 4 KiB pages).
     *
     * @return the bytes asked for
     */
    public long requestedBytes() {
        return requestedBytes;
    }
}
