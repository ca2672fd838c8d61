/**
 * The loader proper: probing, dlopen, symbol versions and availability. It calls no verb: the
 * one door the API takes to native code is {@code dev.panamaverbs.gateway}.
 *
 * <p>The loader's internals, for the panama-verbs modules only (a qualified export): they take raw
 * native addresses, and on the class path, where module encapsulation does not hold, misusing
 * them can crash the JVM like any restricted FFM method can.
 *
 * <ul>
 *   <li>{@link dev.panamaverbs.loader.internal.LibIbverbs}: the process-wide library, probed
 *       once, which binds the generated invokers ({@code dev.panamaverbs.ffm.invoke.verbs_h}) to
 *       the addresses it resolved.</li>
 *   <li>{@link dev.panamaverbs.loader.internal.LibRdmacm}: the process-wide librdmacm, probed on
 *       its own (verbs work without it), which binds {@code rdma_cma_h}.</li>
 *   <li>{@link dev.panamaverbs.loader.internal.LibraryProbe}: probe any file for a generated
 *       {@code NativeLibrary}'s functions into an immutable
 *       {@link dev.panamaverbs.loader.internal.LoadResult} (tests, diagnostics).</li>
 * </ul>
 */
package dev.panamaverbs.loader.internal;
