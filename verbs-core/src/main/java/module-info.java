/**
 * The hand-written RDMA verbs API: devices, contexts and every verbs resource, safe to misuse.
 * {@code dev.panamaverbs} holds devices, contexts, every resource, work requests, completions and
 * the exceptions; {@code dev.panamaverbs.values} the plain values the verbs take and return;
 * {@code dev.panamaverbs.cm} rdma_cm and the endpoint exchange; {@code dev.panamaverbs.onesided}
 * one-sided windows (put, signal, wait) on the public API only; {@code dev.panamaverbs.events}
 * the poller every event wait parks on (one thread in {@code epoll_wait}).
 *
 * <p>This module makes no native call of its own: it calls the generated invokers
 * ({@code dev.panamaverbs.ffm}) and the loader's internals, and needs no native access. Grant it
 * to those two instead: {@code --enable-native-access=dev.panamaverbs.ffm,dev.panamaverbs.loader}.
 */
module dev.panamaverbs.core {
    requires transitive dev.panamaverbs.ffm; // the layouts, for the raw escape hatches (QueuePair.modify)
    requires dev.panamaverbs.loader;
    requires org.slf4j;
    requires jdk.jfr; // the library's flight recorder events (dev.panamaverbs.jfr, not exported)

    exports dev.panamaverbs;
    exports dev.panamaverbs.values;
    exports dev.panamaverbs.cm;
    exports dev.panamaverbs.onesided;
    exports dev.panamaverbs.events;
    // dev.panamaverbs.internal stays unexported: the helpers the packages above share
}
