package dev.panamaverbs.ffm.invoke;

/**
 * Keeps package {@code dev.panamaverbs.ffm.invoke} in this jar's Java 17 base layer: a module's packages on JDK 17 are
 * the ones with classes in the base layer, and the base module descriptor exports this package
 * (as the JDK 22 one does), which javac and the JDK refuse for a package without a class.
 * The package's real classes are in {@code META-INF/versions/22} (docs/multi-release.md).
 */
final class Jdk17BaseLayer {
    private Jdk17BaseLayer() {}
}
