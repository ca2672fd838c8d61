/** Runnable examples of panama-verbs: the README quick start, ./verbs demo, the rc-pingpong and rping twins of rdma-core's C tools, one-sided windows (windows.ProducerConsumer), and a key-value service over verbs-messaging (kv.KeyValueService). */
module dev.panamaverbs.examples {
    requires dev.panamaverbs.core;
    requires dev.panamaverbs.messaging;
}
