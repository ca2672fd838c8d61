/**
 * Readiness of file descriptors, for every waiter at once: the {@link dev.panamaverbs.events.Poller}
 * (one platform thread in {@code epoll_wait} on every registered event fd) and its
 * {@link dev.panamaverbs.events.PollSource}s (one per fd: park until readable, a future, or a
 * handler). The completion channels, rdma_cm event channels and async-event readers of the other
 * packages wait through it; an application may register fds of its own. A room of its own because
 * it knows nothing of verbs objects: only fds, threads and futures.
 */
package dev.panamaverbs.events;
