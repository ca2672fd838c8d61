/**
 * The native gateway's hand-written half: opens libibverbs at run time (never linked), resolves
 * every required symbol at its pinned version or none, binds the generated invokers to what it
 * resolved, and reimplements the {@code static inline} verbs through the provider's ops tables.
 *
 * <p>Everything here is internal. Its one package takes raw native addresses and runs them under
 * this module's native access, so it is exported only to the panama-verbs modules that guard
 * those addresses. Applications use {@code dev.panamaverbs} (module {@code dev.panamaverbs.core}).
 */
@SuppressWarnings("module") // the qualified exports name modules built after this one
module dev.panamaverbs.loader {
    requires transitive dev.panamaverbs.ffm;
    requires org.slf4j;

    exports dev.panamaverbs.loader.internal to dev.panamaverbs.core, dev.panamaverbs.benchmarks;
}
