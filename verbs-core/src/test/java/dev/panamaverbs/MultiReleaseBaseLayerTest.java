package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Java 17 base layer (src/main/java17, compiled into target/classes-java17;
 * docs/multi-release.md) is a subset of the JDK 22 classes: code compiled against it on JDK 17
 * must find every member it calls on JDK 22, with the same signature, since there the JDK 22
 * class replaces the base one. Also: every base class is a Java 17 class file, and the probe
 * answers as JDK 17 would see it.
 */
class MultiReleaseBaseLayerTest {
    static final Path BASE_LAYER = Path.of("target/classes-java17");
    private static final int JAVA_17_CLASS_FILE = 61;

    @Test
    void everyBaseClassIsAJava17ClassFile() throws IOException {
        List<Path> classes = baseClassFiles();
        assertFalse(classes.isEmpty(), "nothing in " + BASE_LAYER.toAbsolutePath());
        for (Path file : classes) {
            try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
                in.readInt(); // magic
                in.readUnsignedShort(); // minor
                assertEquals(JAVA_17_CLASS_FILE, in.readUnsignedShort(), file.toString());
            }
        }
    }

    @Test
    void everyBaseMemberIsInTheJdk22ClassWithTheSameSignature() throws Exception {
        try (URLClassLoader base = baseLayerLoader()) {
            for (String name : basePublicClassNames()) {
                Class<?> old = Class.forName(name, false, base);
                Class<?> current = Class.forName(name);
                assertTrue(old != current, name + ": the base class must come from " + BASE_LAYER);
                assertEquals(old.getSuperclass().getName(), current.getSuperclass().getName(), name);
                assertEquals(old.getModifiers(), current.getModifiers(), name + " modifiers");
                for (Method method : old.getDeclaredMethods()) {
                    if (visible(method)) {
                        Method twin = findTwin(current.getDeclaredMethods(), method);
                        assertNotNull(twin, name + "." + method.getName() + signature(method)
                                + " is in the base layer but not in the JDK 22 class");
                        assertEquals(method.getReturnType().getName(), twin.getReturnType().getName(),
                                name + "." + method.getName() + " return type");
                        assertEquals(method.getModifiers(), twin.getModifiers(), name + "." + method.getName());
                    }
                }
                for (Constructor<?> constructor : old.getDeclaredConstructors()) {
                    if (visible(constructor)) {
                        assertNotNull(findTwin(current.getDeclaredConstructors(), constructor),
                                name + signature(constructor) + " is in the base layer but not in the JDK 22 class");
                    }
                }
            }
        }
    }

    @Test
    void baseProbeSaysWhichJdkItNeeds() throws Exception {
        try (URLClassLoader base = baseLayerLoader()) {
            Class<?> verbs = Class.forName("dev.panamaverbs.Verbs", true, base);
            assertEquals(false, verbs.getMethod("isAvailable").invoke(null));
            String cause = "needs JDK 22 or newer (running " + Runtime.version().feature() + ")";
            assertEquals(java.util.Optional.of(cause), verbs.getMethod("unavailabilityCause").invoke(null));
            Class<?> rdmaCm = Class.forName("dev.panamaverbs.cm.RdmaCm", true, base);
            assertEquals(false, rdmaCm.getMethod("isAvailable").invoke(null));
            assertEquals(java.util.Optional.of(cause), rdmaCm.getMethod("unavailabilityCause").invoke(null));
            Throwable thrown = org.junit.jupiter.api.Assertions.assertThrows(
                    java.lang.reflect.InvocationTargetException.class,
                    () -> verbs.getMethod("ensureAvailable").invoke(null)).getCause();
            assertEquals("dev.panamaverbs.VerbsUnavailableException", thrown.getClass().getName());
            assertEquals("libibverbs is not available: " + cause, thrown.getMessage());
            assertTrue(((java.util.List<?>) verbs.getMethod("devices").invoke(null)).isEmpty());
        }
    }

    /**
     * Loads the base layer's classes from target/classes-java17 first: the JDK's own loaders would
     * hand out this module's JDK 22 classes for the same package, whoever asks.
     */
    private static URLClassLoader baseLayerLoader() throws IOException {
        return new URLClassLoader(new URL[] {BASE_LAYER.toUri().toURL()}, ClassLoader.getPlatformClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (!name.startsWith("dev.panamaverbs.")) {
                    return super.loadClass(name, resolve);
                }
                synchronized (getClassLoadingLock(name)) {
                    Class<?> loaded = findLoadedClass(name);
                    return loaded != null ? loaded : findClass(name);
                }
            }
        };
    }

    private static boolean visible(Executable member) {
        return Modifier.isPublic(member.getModifiers()) || Modifier.isProtected(member.getModifiers());
    }

    private static <T extends Executable> T findTwin(T[] candidates, Executable member) {
        for (T candidate : candidates) {
            if (candidate.getName().equals(member.getName()) && signature(candidate).equals(signature(member))) {
                return candidate;
            }
        }
        return null;
    }

    private static String signature(Executable member) {
        return Arrays.stream(member.getParameterTypes()).map(Class::getName).collect(Collectors.joining(",", "(", ")"));
    }

    private static List<Path> baseClassFiles() throws IOException {
        try (Stream<Path> files = Files.walk(BASE_LAYER)) {
            return files.filter(file -> file.toString().endsWith(".class")).sorted().collect(Collectors.toList());
        }
    }

    /** The public classes of the base layer (not module-info, not the package placeholders). */
    private static List<String> basePublicClassNames() throws Exception {
        List<String> names = new ArrayList<>();
        try (URLClassLoader base = baseLayerLoader()) {
            for (Path file : baseClassFiles()) {
                String relative = BASE_LAYER.relativize(file).toString();
                if (relative.equals("module-info.class")) {
                    continue;
                }
                String name = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
                if (Modifier.isPublic(Class.forName(name, false, base).getModifiers())) {
                    names.add(name);
                }
            }
        }
        assertTrue(names.contains("dev.panamaverbs.Verbs") && names.contains("dev.panamaverbs.cm.RdmaCm"), names::toString);
        return names;
    }
}
