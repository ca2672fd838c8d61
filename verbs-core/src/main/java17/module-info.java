// The Java 17 base layer's descriptor (docs/multi-release.md): the only one in the jar, so its
// requires and exports must be those of src/main/java/module-info.java (the JDK wants them equal
// for every version of a multi-release jar); MultiReleaseDescriptorTest checks it.

/**
 * The RDMA verbs API. On JDK 17 to 21 only the probe is here ({@code Verbs.isAvailable()} is
 * false, the cause says "needs JDK 22 or newer"); the API is in the jar's
 * {@code META-INF/versions/22}.
 */
module dev.panamaverbs.core {
    requires transitive dev.panamaverbs.ffm;
    requires dev.panamaverbs.loader;
    requires org.slf4j;
    requires jdk.jfr;

    exports dev.panamaverbs;
    exports dev.panamaverbs.values;
    exports dev.panamaverbs.cm;
    exports dev.panamaverbs.onesided;
    exports dev.panamaverbs.events;
}
