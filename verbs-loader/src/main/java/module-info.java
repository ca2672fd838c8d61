/**
 * The native gateway's hand-written half: opens libibverbs at run time (never linked), resolves
 * every required symbol at its pinned version or none, binds the generated invokers to what it
 * resolved, and reimplements the {@code static inline} verbs through the provider's ops tables.
 *
 * <p>Two packages: {@code dev.panamaverbs.loader.internal}, the loader proper (probe, dlopen,
 * symbol versions, availability), and {@code dev.panamaverbs.gateway}, the one door the API
 * takes to the ops tables. Everything here is internal. Both take raw native addresses and runs them under
 * this module's native access, so they are exported only to the panama-verbs modules that guard
 * those addresses. Applications use {@code dev.panamaverbs} (module {@code dev.panamaverbs.core}).
 */
@SuppressWarnings("module") // the qualified exports name modules built after this one
module dev.panamaverbs.loader {
    requires transitive dev.panamaverbs.ffm;
    requires org.slf4j;

    exports dev.panamaverbs.loader.internal to dev.panamaverbs.core, dev.panamaverbs.benchmarks;
    exports dev.panamaverbs.gateway to dev.panamaverbs.core, dev.panamaverbs.benchmarks;
}
