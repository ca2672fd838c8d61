/**
 * The gateway to native code that libibverbs does not export: the {@code static inline} verbs of
 * verbs.h, reimplemented over the provider's ops tables ({@code ibv_context.ops},
 * {@code struct verbs_context}, the objects' own function pointers), with C's return conventions.
 * For the panama-verbs modules only (a qualified export), like the loader's internals.
 *
 * <ul>
 *   <li>{@link dev.panamaverbs.gateway.VerbsOps} (generated): every resolve-guard-call verb, one
 *       rule for all: resolve the op, answer EOPNOTSUPP when the provider lacks it, else call
 *       through the generated invoker.</li>
 *   <li>{@link dev.panamaverbs.gateway.OpsTable} ({@code ibv_context.ops}: the data path),
 *       {@link dev.panamaverbs.gateway.ExtendedOps} ({@code verbs_context}, and the verbs whose
 *       header bodies do more than resolve-guard-call), {@link dev.panamaverbs.gateway.InlineVerbs}
 *       (macros over exports), {@link dev.panamaverbs.gateway.ObjectVerbs},
 *       {@link dev.panamaverbs.gateway.CqEx} and {@link dev.panamaverbs.gateway.QpEx}.</li>
 * </ul>
 */
package dev.panamaverbs.gateway;
