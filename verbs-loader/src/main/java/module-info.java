/**
 * Loads {@code libibverbs.so.1} at run time (never linked), resolves every required symbol or
 * none, reports availability with its cause, and reaches the {@code static inline} verbs through
 * the {@code ibv_context} ops table and {@code verbs_context}.
 *
 * <p>{@code dev.panamaverbs.loader} takes raw native addresses (post, poll, ops-table reads) and
 * runs them under this module's native access, so it is exported only to the modules of
 * panama-verbs that guard those addresses; applications use {@code dev.panamaverbs.Verbs}.
 * Exceptions and the capability set are for everyone.
 */
@SuppressWarnings("module") // the qualified exports name modules built after this one
module dev.panamaverbs.loader {
    requires transitive dev.panamaverbs.ffm;
    requires org.slf4j;

    exports dev.panamaverbs.error;
    exports dev.panamaverbs.library;
    exports dev.panamaverbs.loader to dev.panamaverbs.core, dev.panamaverbs.benchmarks;
}
