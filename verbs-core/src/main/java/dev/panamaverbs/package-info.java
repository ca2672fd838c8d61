/**
 * The hand-written RDMA verbs API: devices, contexts and every verbs resource, safe to misuse.
 *
 * <h2>Segments handed out</h2>
 * Every public method of this package that returns a {@link java.lang.foreign.MemorySegment} (none
 * returns a {@link java.nio.ByteBuffer}), who owns the memory behind it, when that memory dies, and
 * whether the segment is writable. Memory the provider or the kernel owns is never handed out
 * writable: a write there could crash the process at the next verb. A test enumerates these
 * methods by reflection and checks that each is listed here, and that the read-only ones are.
 *
 * <table class="striped">
 * <caption>Public segments: owner, lifetime, access</caption>
 * <thead>
 * <tr><th scope="col">Method</th><th scope="col">Memory</th><th scope="col">Owner</th>
 *     <th scope="col">Dies</th><th scope="col">Writable</th></tr>
 * </thead>
 * <tbody>
 * <tr><td>{@link dev.panamaverbs.VerbsResource#handle()}</td>
 *     <td>the C object of the resource ({@code struct ibv_context}, {@code ibv_pd}, {@code ibv_cq},
 *         {@code ibv_qp}, ...)</td>
 *     <td>provider</td>
 *     <td>when the resource closes; the segment's scope ends just before the native object is
 *         freed, so a kept handle throws {@link java.lang.IllegalStateException}</td>
 *     <td>no</td></tr>
 * <tr><td>{@link dev.panamaverbs.SendWorkRequest#segment()}</td>
 *     <td>the request's {@code struct ibv_send_wr} (it holds pointers the provider follows)</td>
 *     <td>library, in the caller's arena</td>
 *     <td>when that arena closes ({@link dev.panamaverbs.SendWorkRequest#allocate(int)}: when the
 *         request is unreachable)</td>
 *     <td>no</td></tr>
 * <tr><td>{@link dev.panamaverbs.ReceiveWorkRequest#segment()}</td>
 *     <td>the request's {@code struct ibv_recv_wr} (pointers, as above)</td>
 *     <td>library, in the caller's arena</td>
 *     <td>as above</td>
 *     <td>no</td></tr>
 * <tr><td>{@link dev.panamaverbs.Completions#segment()}</td>
 *     <td>the {@code struct ibv_wc} array a poll fills (plain values, no pointers)</td>
 *     <td>caller's arena</td>
 *     <td>when that arena closes ({@link dev.panamaverbs.Completions#allocate(int)}: when the batch
 *         is unreachable); a poll into a closed one is an {@link java.lang.IllegalStateException}</td>
 *     <td>yes: a write changes only what the accessors read until the next poll</td></tr>
 * <tr><td>{@link dev.panamaverbs.MemoryRegion#memory()}</td>
 *     <td>the registered memory: the caller's segment
 *         ({@link dev.panamaverbs.ProtectionDomain#register}) or memory the region allocated
 *         ({@link dev.panamaverbs.ProtectionDomain#allocateMemoryRegion})</td>
 *     <td>caller, or the region</td>
 *     <td>the caller's arena; memory the region allocated is freed when the region closes, after
 *         {@code ibv_dereg_mr}</td>
 *     <td>yes: it is the data buffer the device reads and writes</td></tr>
 * <tr><td>{@link dev.panamaverbs.MemoryRegion#slice(long, long)}</td>
 *     <td>part of {@link dev.panamaverbs.MemoryRegion#memory()}</td>
 *     <td>as {@code memory()}</td>
 *     <td>as {@code memory()}</td>
 *     <td>yes</td></tr>
 * </tbody>
 * </table>
 */
package dev.panamaverbs;
