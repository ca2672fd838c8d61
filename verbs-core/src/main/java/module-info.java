/**
 * The hand-written RDMA verbs API: devices, contexts and every verbs resource, safe to misuse.
 * {@code dev.panamaverbs} holds all of it (exceptions and capabilities included);
 * {@code dev.panamaverbs.onesided} adds one-sided windows (put, signal, wait) on its public API only.
 *
 * <p>This module makes no native call of its own: it calls the generated invokers
 * ({@code dev.panamaverbs.ffm}) and the loader's internals, and needs no native access. Grant it
 * to those two instead: {@code --enable-native-access=dev.panamaverbs.ffm,dev.panamaverbs.loader}.
 */
module dev.panamaverbs.core {
    requires transitive dev.panamaverbs.ffm; // the layouts, for the raw escape hatches (QueuePair.modify)
    requires dev.panamaverbs.loader;
    requires org.slf4j;

    exports dev.panamaverbs;
    exports dev.panamaverbs.onesided;
}
