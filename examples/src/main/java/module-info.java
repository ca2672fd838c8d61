/** Runnable examples of panama-verbs: the README quick start, ./verbs demo, and the rc-pingpong and rping twins of rdma-core's C tools. */
module dev.panamaverbs.examples {
    requires dev.panamaverbs.core;
}
