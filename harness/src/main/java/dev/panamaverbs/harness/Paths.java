package dev.panamaverbs.harness;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** The few file operations staging needs. */
final class Paths {
    private Paths() {}

    /** Deletes {@code dir} with everything in it, if it exists, and returns it. */
    static Path clean(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> tree = Files.walk(dir)) {
                for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
        return dir;
    }

    /** Copies every jar directly under {@code from} into {@code to}. */
    static void copyJars(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            throw new HarnessException("no " + from + ": build first (mvn install)");
        }
        try (Stream<Path> files = Files.list(from)) {
            for (Path jar : files.filter(file -> file.getFileName().toString().endsWith(".jar")).toList()) {
                Files.copy(jar, to.resolve(jar.getFileName()));
            }
        }
    }

    /** The packages (dotted) holding class files under a class folder, sorted. */
    static SortedSet<String> classPackages(Path classes) throws IOException {
        try (Stream<Path> tree = Files.walk(classes)) {
            return tree.filter(file -> file.getFileName().toString().endsWith(".class"))
                    .filter(file -> !file.getFileName().toString().equals("module-info.class"))
                    .map(file -> classes.relativize(file).getParent())
                    .filter(dir -> dir != null)
                    .map(dir -> dir.toString().replace(File.separatorChar, '.'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The paths joined with the platform's path separator (a class or module path). */
    static String join(List<Path> paths) {
        return paths.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    /** Writes a jar at {@code jar} holding everything under the class folder {@code classes}, and returns it. */
    static Path jar(Path classes, Path jar) throws IOException {
        try (Stream<Path> tree = Files.walk(classes);
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar))) {
            for (Path path : tree.sorted().toList()) {
                String name = classes.relativize(path).toString().replace(File.separatorChar, '/');
                if (name.isEmpty()) {
                    continue;
                }
                boolean folder = Files.isDirectory(path);
                out.putNextEntry(new ZipEntry(folder ? name + "/" : name));
                if (!folder) {
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        }
        return jar;
    }
}
