package dev.panamaverbs;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every public method of a public API class is declared in a public class, or javac bridged it
 * there: reflection (the misuse fuzz, a user's framework) can call it. A {@code public final}
 * method inherited from a package-private base gets no bridge, and {@code Method.invoke} then
 * throws IllegalAccessException from outside the package.
 */
class PublicMethodsReachableTest {
    private static final List<String> EXPORTED =
            List.of("dev.panamaverbs", "dev.panamaverbs.values", "dev.panamaverbs.cm", "dev.panamaverbs.onesided");

    @Test
    void everyPublicMethodOfAnExportedClassIsDeclaredInAPublicClass() throws IOException, URISyntaxException, ClassNotFoundException {
        List<String> names = CompiledClasses.binaryNames().stream().map(name -> name.replace('$', '.')).toList();
        List<String> unreachable = new ArrayList<>();
        for (String name : names) {
            String binary = name;
            Class<?> type = load(name);
            if (type == null || !Modifier.isPublic(type.getModifiers()) || !EXPORTED.contains(type.getPackageName())) {
                continue;
            }
            for (Method method : type.getMethods()) {
                if (!Modifier.isPublic(method.getDeclaringClass().getModifiers())) {
                    unreachable.add(binary + ": " + method);
                }
            }
        }
        assertEquals(List.of(), unreachable);
    }

    /** The class of a dotted name whose nested parts may be {@code $}-separated; null when it is not one. */
    private static Class<?> load(String dotted) {
        String binary = dotted;
        while (true) {
            try {
                return Class.forName(binary, false, PublicMethodsReachableTest.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                int dot = binary.lastIndexOf('.');
                if (dot < 0 || binary.substring(0, dot).indexOf('.') < 0) {
                    return null;
                }
                binary = binary.substring(0, dot) + '$' + binary.substring(dot + 1);
            }
        }
    }
}
