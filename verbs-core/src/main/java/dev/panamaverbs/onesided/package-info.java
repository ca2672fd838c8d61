/**
 * One-sided communication over RC queue pairs: {@link dev.panamaverbs.onesided.Window}s a process
 * exposes, their {@link dev.panamaverbs.onesided.WindowDescriptor}s, the peer's
 * {@link dev.panamaverbs.onesided.RemoteWindow}, 8-byte signal and counter slots, and
 * {@link dev.panamaverbs.onesided.OneSidedChannel}: put, signal, put-with-signal, counters through
 * a companion queue pair, and waits with timeouts. Built on the public API of {@code dev.panamaverbs} only.
 */
package dev.panamaverbs.onesided;
