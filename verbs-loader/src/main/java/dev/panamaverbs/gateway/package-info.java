/**
 * The one door the API takes to native code: the functions libibverbs and librdmacm export
 * (under their C names, through the invokers the loader bound), and the {@code static inline}
 * verbs of verbs.h, reimplemented over the provider's ops tables ({@code ibv_context.ops},
 * {@code struct verbs_context}, the objects' own function pointers), with C's return conventions.
 * For the panama-verbs modules only (a qualified export), like the loader's internals.
 *
 * <ul>
 *   <li>{@link dev.panamaverbs.gateway.IbverbsCalls} and
 *       {@link dev.panamaverbs.gateway.RdmacmCalls} (generated): every exported function, and every
 *       resolve-guard-call verb by one rule: resolve the op, answer EOPNOTSUPP when the provider
 *       lacks it, else call through the generated invoker.</li>
 *   <li>{@link dev.panamaverbs.gateway.OpsTable} ({@code ibv_context.ops}: the data path),
 *       {@link dev.panamaverbs.gateway.ExtendedOps} ({@code verbs_context}, and the verbs whose
 *       header bodies do more than resolve-guard-call), {@link dev.panamaverbs.gateway.InlineVerbs}
 *       (macros over exports), {@link dev.panamaverbs.gateway.ObjectVerbs},
 *       {@link dev.panamaverbs.gateway.CqEx} and {@link dev.panamaverbs.gateway.QpEx}.</li>
 *   <li>{@link dev.panamaverbs.gateway.Pointers}: sizing the pointers C hands out;
 *       {@link dev.panamaverbs.gateway.Libc}: {@code fcntl} and {@code poll} on event fds.</li>
 * </ul>
 */
package dev.panamaverbs.gateway;
