package dev.panamaverbs;

import dev.panamaverbs.values.Errno;

/**
 * The provider (or the loaded libibverbs) does not offer this verb or operation: an
 * {@code EOPNOTSUPP} answer, an ops-table entry that is null, or a provider context too small to
 * hold an extended op. Device tests treat it as "skip", not "fail".
 */
public class VerbsUnsupportedException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** The errno Linux uses for "operation not supported". */
    public static final int EOPNOTSUPP = 95;

    /**
     * {@code verb} is not supported; {@code reason} says how that was found out.
     *
     * @param verb the C verb being called, named in messages (e.g. {@code ibv_create_qp})
     * @param reason why
     */
    public VerbsUnsupportedException(String verb, String reason) {
        super(verb, EOPNOTSUPP, verb + " is not supported: " + reason, null);
    }

    /**
     * {@code verb} answered with an errno that means "not supported" (EOPNOTSUPP, ENOSYS...).
     *
     * @param verb the C verb being called, named in messages (e.g. {@code ibv_create_qp})
     * @param errno the errno value
     */
    public VerbsUnsupportedException(String verb, int errno) {
        super(verb, errno, verb + " is not supported: errno " + errno + " (" + Errno.describe(errno) + ")", null);
    }
}
