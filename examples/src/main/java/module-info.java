/** Runnable examples of panama-verbs: the README quick start, ./verbs demo, the rc-pingpong and rping twins of rdma-core's C tools, and one-sided windows (windows.ProducerConsumer). */
module dev.panamaverbs.examples {
    requires dev.panamaverbs.core;
}
