/** JMH benchmarks of panama-verbs and side-by-side runs against perftest. */
module dev.panamaverbs.benchmarks {
    requires dev.panamaverbs.core;
    requires dev.panamaverbs.messaging; // MessagingCompare
    requires dev.panamaverbs.loader; // OpsTableBench measures the loader's invokers directly
    requires jmh.core;
    requires jdk.management; // PollerIdleCost reads the process CPU time
    requires java.desktop; // SweepChart draws its PNG with AWT, headless
    requires org.jfree.jfreechart; // SweepChart
}
