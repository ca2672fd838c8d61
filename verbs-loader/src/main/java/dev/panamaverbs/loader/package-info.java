/**
 * Loads libibverbs at run time and reaches every verb the core API needs.
 *
 * <ul>
 *   <li>{@link dev.panamaverbs.loader.LibIbverbs}: the process-wide library, probed once;
 *       availability, its cause, the {@link dev.panamaverbs.library.Capability capabilities}.</li>
 *   <li>{@link dev.panamaverbs.loader.LibraryProbe}: probe any file into an immutable
 *       {@link dev.panamaverbs.loader.LoadResult} (tests, diagnostics).</li>
 *   <li>{@link dev.panamaverbs.loader.Natives}: errno-capturing handles for exported functions;
 *       {@link dev.panamaverbs.loader.CallState} reads the captured errno.</li>
 *   <li>The {@code static inline} verbs, reimplemented: {@link dev.panamaverbs.loader.OpsTable}
 *       ({@code ibv_context.ops}), {@link dev.panamaverbs.loader.ExtendedOps}
 *       ({@code verbs_context}), {@link dev.panamaverbs.loader.InlineVerbs} (macros over exports),
 *       {@link dev.panamaverbs.loader.QpEx} ({@code ibv_wr_*}), {@link dev.panamaverbs.loader.CqEx}
 *       ({@code ibv_start_poll}...).</li>
 * </ul>
 */
package dev.panamaverbs.loader;
