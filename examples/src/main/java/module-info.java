/** Runnable examples of panama-verbs: the README quick start and ./verbs demo. */
module dev.panamaverbs.examples {
    requires dev.panamaverbs.core;
}
