// Hand-written (not generated): the Java 17 base layer's descriptor (docs/multi-release.md).
// The JDK requires the exports, requires and opens of a multi-release jar's descriptors to be
// the same for every version: keep them equal to src/main/java/module-info.java (the generated
// one); MultiReleaseDescriptorTest in verbs-core checks it.

/**
 * The generated FFM layer. On JDK 17 to 21 this descriptor resolves, so that a module requiring
 * panama-verbs starts, but the packages hold only placeholders: the classes are in the jar's
 * {@code META-INF/versions/22}.
 */
@SuppressWarnings("module")
module dev.panamaverbs.ffm {
    exports dev.panamaverbs.ffm;
    exports dev.panamaverbs.ffm.rdmacm;
    exports dev.panamaverbs.ffm.invoke to
        dev.panamaverbs.loader,
        dev.panamaverbs.core,
        dev.panamaverbs.benchmarks;
}
