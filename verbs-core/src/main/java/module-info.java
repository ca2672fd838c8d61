/** The hand-written RDMA verbs API: devices, contexts and every verbs resource, safe to misuse. */
module dev.panamaverbs.core {
    requires transitive dev.panamaverbs.loader;
    requires org.slf4j;

    exports dev.panamaverbs;
}
