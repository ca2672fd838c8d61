/** JMH benchmarks of panama-verbs and side-by-side runs against perftest. */
module dev.panamaverbs.benchmarks {
    requires dev.panamaverbs.core;
    requires dev.panamaverbs.loader; // OpsTableBench measures the loader's invokers directly
    requires jmh.core;
}
