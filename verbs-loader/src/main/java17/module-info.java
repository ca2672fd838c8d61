// The Java 17 base layer's descriptor (docs/multi-release.md): the exports and requires must be
// those of src/main/java/module-info.java (MultiReleaseDescriptorTest in verbs-core checks it).

/**
 * The loader. On JDK 17 to 21 this descriptor resolves, so that a module requiring panama-verbs
 * starts, but the packages hold only placeholders: the classes are in the jar's
 * {@code META-INF/versions/22}.
 */
@SuppressWarnings("module") // the qualified exports name modules built after this one
module dev.panamaverbs.loader {
    requires transitive dev.panamaverbs.ffm;
    requires org.slf4j;

    exports dev.panamaverbs.loader.internal to dev.panamaverbs.core, dev.panamaverbs.benchmarks;
    exports dev.panamaverbs.gateway to dev.panamaverbs.core, dev.panamaverbs.benchmarks;
}
