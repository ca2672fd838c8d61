/**
 * Loads {@code libibverbs.so.1} at run time (never linked), resolves every required symbol or
 * none, reports availability with its cause, and reaches the {@code static inline} verbs through
 * the {@code ibv_context} ops table and {@code verbs_context}.
 */
module dev.panamaverbs.loader {
    requires transitive dev.panamaverbs.ffm;
    requires org.slf4j;

    exports dev.panamaverbs.loader;
    exports dev.panamaverbs.error;
}
