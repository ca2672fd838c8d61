package dev.panamaverbs.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stages what the JUnit Platform ConsoleLauncher needs to run the device tests outside Maven,
 * after a build ({@code mvn install}, tests run or skipped). It writes, under its folder:
 * <ul>
 * <li>{@code modules/}: our module jars, JUnit and slf4j (all real modules, for --module-path);
 * <li>{@code java.args}: a java @argfile with the module path, class path, patches and native access;
 * <li>{@code scan.args}: the --scan-class-path roots for the ConsoleLauncher;
 * <li>{@code peer.args}: a java @argfile for the peer programs of two-host tests (host B): the
 *     same module path, native access and test classes, but on the class path only, unpatched
 *     and as jars ({@code peer-classes/}): {@code --patch-module} and class folders turn class
 *     data sharing off, and without it a JVM takes seconds longer to start under TCG. The device tests get its path as system property
 *     {@value #PEER_ARGS_PROPERTY}, for the child JVMs they start on host A (the misuse fuzz).
 * <li>{@code examples/java.args}: how to run the examples (the interop device tests start them as
 *     peer processes), named to the tests by the system property {@value #EXAMPLES_ARGS_PROPERTY};
 *     skipped when the examples are not built.
 * </ul>
 * Each module's test classes go on the class path (so the ConsoleLauncher finds them) and are
 * also patched into their module (so tests in a module's own package see package-private API and
 * load in the module, as under Surefire; tests in other packages are added to the module).
 * The modules without a descriptor that hold tests ({@link #CLASS_PATH_DIRS}: verbs-it, with the
 * device, two-host and fuzz tests and their support, and perftest's interop tests and sweep) go
 * on the class path only, unpatched, as under Surefire: they use the library's exported API. So
 * do the benchmarks' classes and tests, for the two-host messaging bench alone (benchmarks is a
 * tool, not one of the library's modules).
 */
record DeviceTestStaging(Path root) {
    /** Reactor modules whose jars and test classes take part in device tests (benchmarks does not). */
    static final List<String> MODULE_DIRS = List.of("verbs-ffm", "verbs-loader", "verbs-core", "verbs-testkit",
            "verbs-messaging");
    /**
     * Class-path entries (under the repository root) of the reactor modules without a module
     * descriptor that hold tests: scanned by the ConsoleLauncher where they are test classes, on
     * the class path of the tests and of the peer programs alike. verbs-it's main classes are its
     * tests' support, the peer agent (host B) among them.
     */
    static final List<String> CLASS_PATH_DIRS = List.of("verbs-it/target/classes", "verbs-it/target/test-classes",
            "perftest/target/test-classes", "benchmarks/target/classes", "benchmarks/target/test-classes");
    /** Where the harness's build copied its runtime dependencies: the JUnit launcher and slf4j. */
    static final String LAUNCHER_JARS = "harness/target/junit-launcher";
    /** What test code reads besides its module: JUnit, and anything on the class path. */
    private static final String TEST_READS = "org.junit.jupiter.api,org.junit.jupiter.params,ALL-UNNAMED";
    /** The system property that gives the device tests the examples' java @argfile. */
    static final String EXAMPLES_ARGS_PROPERTY = "panamaverbs.examples.args";
    /** The system property that gives the device tests the peer programs' java @argfile ({@code peer.args}). */
    static final String PEER_ARGS_PROPERTY = "panamaverbs.peer.args";

    void stage(Path dir) throws IOException {
        Files.createDirectories(Paths.clean(dir));
        Path modules = Files.createDirectories(dir.resolve("modules"));
        Paths.copyJars(root.resolve(LAUNCHER_JARS), modules);
        List<ModuleJar> jars = MODULE_DIRS.stream().map(moduleDir -> ModuleJar.of(root, moduleDir)).toList();
        // package -> module: a package in two modules (main or patched tests) breaks the boot
        // layer, so say which instead of letting java fail with a split-package error.
        Map<String, String> owner = new HashMap<>();
        for (ModuleJar jar : jars) {
            Files.copy(jar.jar(), modules.resolve(jar.jar().getFileName()));
            jar.packages().forEach(pkg -> owner.put(pkg, jar.name()));
        }
        List<Path> scan = new ArrayList<>();
        List<String> patches = new ArrayList<>();
        for (ModuleJar jar : jars) {
            Path tests = root.resolve(jar.moduleDir()).resolve("target/test-classes");
            if (!Files.isDirectory(tests)) {
                continue;
            }
            scan.add(tests);
            patches.addAll(List.of("--patch-module", jar.name() + "=" + tests, "--add-reads", jar.name() + "=" + TEST_READS));
            for (String pkg : Paths.classPackages(tests)) {
                String other = owner.putIfAbsent(pkg, jar.name());
                if (other != null && !other.equals(jar.name())) {
                    throw new HarnessException("test package " + pkg + " of " + jar.moduleDir() + " is also in module "
                            + other + ": give " + jar.moduleDir() + "'s tests a package of their own (e.g. " + pkg + "."
                            + jar.moduleDir().replaceFirst("^verbs-", "") + "test)");
                }
                // JUnit reflects into every test package.
                patches.addAll(List.of("--add-opens", jar.name() + "/" + pkg + "=org.junit.platform.commons"));
            }
        }
        // Test classes outside the modules: on the class path and scanned (their main support only on the path).
        List<Path> classPath = new ArrayList<>(scan);
        for (String entry : CLASS_PATH_DIRS) {
            Path classes = root.resolve(entry);
            if (!Files.isDirectory(classes)) {
                continue;
            }
            classPath.add(classes);
            if (entry.endsWith("/test-classes")) {
                scan.add(classes);
            }
            for (String pkg : Paths.classPackages(classes)) {
                String other = owner.get(pkg);
                if (other != null) {
                    throw new HarnessException("package " + pkg + " of " + entry + " is also in module " + other
                            + ": classes on the class path cannot share a package with a module");
                }
            }
        }
        List<String> args = javaArgs(modules, classPath, patches);
        if (Files.isDirectory(root.resolve(ExampleStaging.DEPENDENCIES))) {
            Path examples = dir.resolve("examples");
            new ExampleStaging(root).stage(examples);
            args.add("-D" + EXAMPLES_ARGS_PROPERTY + "=" + examples.resolve("java.args"));
        }
        args.add("-D" + PEER_ARGS_PROPERTY + "=" + dir.resolve("peer.args").toAbsolutePath());
        Files.write(dir.resolve("java.args"), args);
        Files.write(dir.resolve("scan.args"), scanArgs(scan));
        Files.write(dir.resolve("peer.args"), javaArgs(modules, jarred(classPath, dir.resolve("peer-classes")), List.of()));
    }

    /**
     * The class folders as jars in {@code into}, in the same order: the JVM archives classes for
     * class data sharing only from jars (a class folder on the path turns the archive off), and the
     * peer and child JVMs started with {@code peer.args} start from one (docs/suite-time.md).
     */
    private static List<Path> jarred(List<Path> classPath, Path into) throws IOException {
        Files.createDirectories(into);
        List<Path> jars = new ArrayList<>();
        for (Path classes : classPath) {
            // verbs-it/target/test-classes -> verbs-it-test-classes.jar: unique, and says where it came from.
            String name = classes.getParent().getParent().getFileName() + "-" + classes.getFileName() + ".jar";
            jars.add(Paths.jar(classes, into.resolve(name)).toAbsolutePath());
        }
        return jars;
    }

    private static List<String> javaArgs(Path modules, List<Path> classPath, List<String> patches) {
        List<String> args = new ArrayList<>(List.of("--module-path", modules.toString()));
        if (!classPath.isEmpty()) {
            args.addAll(List.of("--class-path", Paths.join(classPath)));
        }
        args.addAll(List.of("--add-modules", "ALL-MODULE-PATH"));
        args.addAll(NativeAccess.options());
        args.addAll(patches);
        return args;
    }

    private static List<String> scanArgs(List<Path> scan) {
        List<String> args = new ArrayList<>();
        scan.forEach(tests -> args.addAll(List.of("--scan-class-path", tests.toString())));
        return args;
    }
}
