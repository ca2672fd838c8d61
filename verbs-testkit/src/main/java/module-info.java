/** JUnit 5 support, fixtures and the SoftRoCE (rxe) harness for panama-verbs device tests. */
module dev.panamaverbs.testkit {
    requires transitive dev.panamaverbs.core;
    requires transitive org.junit.jupiter.api;

    exports dev.panamaverbs.testkit;
}
