/**
 * One-sided communication over RC queue pairs: {@link dev.panamaverbs.onesided.Window}s a process
 * exposes, their {@link dev.panamaverbs.onesided.WindowDescriptor}s, the peer's
 * {@link dev.panamaverbs.onesided.RemoteWindow}, 8-byte signal and counter slots, and
 * {@link dev.panamaverbs.onesided.OneSidedChannel}: put, signal, put-with-signal, counters through
 * a companion queue pair, and waits with timeouts. Built on the public API of {@code dev.panamaverbs} only.
 *
 * <p>The one public segment of this package, {@link dev.panamaverbs.onesided.Window#memory()}, is
 * its region's {@link dev.panamaverbs.MemoryRegion#memory()}: writable, owned as that row of the
 * ownership table in {@code dev.panamaverbs} says, and refusing access once the window's region
 * is closed (the misuse fuzz writes through it before and after).
 */
package dev.panamaverbs.onesided;
