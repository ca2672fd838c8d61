package dev.panamaverbs.it.support;

import dev.panamaverbs.testkit.DeviceTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * Splits the one-host device tests of a two-host run between the two VMs, each of which has its
 * own rxe0 and its own emulated CPU: host A's device launcher runs its share and then every
 * two-host test, host B runs the other share in a launcher of its own before its peer agent starts
 * (scripts/device-run.sh, docs/device-test-harness.md). A launcher filter (registered through
 * {@code META-INF/services}, so the ConsoleLauncher finds it on the class path), active only when
 * the system property {@value #HOST_PROPERTY} names the launcher's host ({@code a} or {@code b}):
 * without it every test is kept. Both hosts compute the same split from the same discovered classes:
 * the one-host classes that have a test tagged {@code device}, each whole class to one host, the
 * longest first to the host with less to do ({@link #split}). Two-host classes and anything outside
 * the split stay on host A. Host A writes the split to the file {@value #SPLIT_FILE_PROPERTY} names,
 * one {@code <host> <class>} a line, so that the run's summary can check that each class ran on
 * its host (harness HostShareSummary).
 */
public final class HostShare implements PostDiscoveryFilter {
    /** The system property naming this launcher's host in a split run: {@code a} or {@code b}. */
    public static final String HOST_PROPERTY = "panamaverbs.hostShare";
    /** The system property naming the file host A writes the split to. */
    public static final String SPLIT_FILE_PROPERTY = "panamaverbs.hostShare.file";

    /**
     * Seconds per class in the last full CI run, for the classes over about 5 s (the data file
     * {@value #SECONDS_RESOURCE} beside this class); a class not listed counts
     * {@value #DEFAULT_SECONDS}. Only the balance depends on them: a stale figure moves a class to
     * the other host, never out of the run.
     */
    static final Map<String, Double> SECONDS = readSeconds();
    static final String SECONDS_RESOURCE = "class-seconds.properties";
    static final double DEFAULT_SECONDS = 2.0;
    /**
     * Host B's head start in the balance: while its share runs, B also makes the perftest JVMs'
     * archive (scripts/jvm-cache.sh, about 40 s in the VM), and host A's two-host tests wait for B.
     */
    static final double HOST_B_EXTRA_SECONDS = 40.0;

    private final Optional<String> host;
    private final Optional<Path> splitFile;
    private final Map<String, Double> seconds;
    /** The split of each engine's discovered tree (computed at the engine's root, which the launcher filters first). */
    private final Map<TestDescriptor, Map<String, String>> splits = new IdentityHashMap<>();
    /** Every split so far, as written to the split file. */
    private final Map<String, String> written = new TreeMap<>();

    /** The filter as the launcher loads it: configured by the system properties. */
    public HostShare() {
        this(System.getProperty(HOST_PROPERTY), System.getProperty(SPLIT_FILE_PROPERTY), SECONDS);
    }

    HostShare(String host, String splitFile, Map<String, Double> seconds) {
        if (host != null && !host.equals("a") && !host.equals("b")) {
            throw new IllegalArgumentException(HOST_PROPERTY + " is a or b, got " + host);
        }
        this.host = Optional.ofNullable(host);
        this.splitFile = Optional.ofNullable(splitFile).filter(file -> !file.isBlank()).map(Path::of);
        this.seconds = Map.copyOf(seconds);
    }

    @Override
    public FilterResult apply(TestDescriptor descriptor) {
        if (host.isEmpty()) {
            return FilterResult.included("not a split run");
        }
        TestDescriptor root = root(descriptor);
        Map<String, String> split = splits.computeIfAbsent(root, this::splitOf);
        if (descriptor.isRoot()) {
            return FilterResult.included("the engine");
        }
        // Every descriptor by its class: a test template (parameterized, repeated) has no tests
        // before it runs, so it must go as a whole; a class goes when its tests have gone.
        String owner = topLevelClass(descriptor).map(split::get).orElse("a");
        return owner.equals(host.get()) ? FilterResult.included("host " + owner + "'s share")
                : FilterResult.excluded("host " + owner + "'s share");
    }

    private Map<String, String> splitOf(TestDescriptor root) {
        Map<String, Double> classes = new TreeMap<>();
        for (TestDescriptor child : root.getChildren()) {
            if (child.getSource().orElse(null) instanceof ClassSource source && isOneHostDeviceClass(source.getClassName(), child)) {
                classes.put(source.getClassName(), seconds.getOrDefault(source.getClassName(), DEFAULT_SECONDS));
            }
        }
        Map<String, String> split = split(classes);
        if (host.get().equals("a") && splitFile.isPresent()) {
            written.putAll(split);
            PeerJob.writeAtomically(splitFile.get(), written.entrySet().stream()
                    .map(entry -> entry.getValue() + " " + entry.getKey() + "\n").collect(Collectors.joining()));
        }
        return split;
    }

    /**
     * The split: each class to host {@code a} or {@code b}, longest first to the host with less
     * to do so far (host B starting at {@link #HOST_B_EXTRA_SECONDS}), ties by name and to host A.
     *
     * @param seconds each class's expected seconds
     * @return each class's host
     */
    static Map<String, String> split(Map<String, Double> seconds) {
        List<String> longestFirst = new ArrayList<>(seconds.keySet());
        longestFirst.sort(Comparator.comparing((String name) -> seconds.get(name)).reversed().thenComparing(Comparator.naturalOrder()));
        Map<String, String> split = new TreeMap<>();
        double a = 0;
        double b = HOST_B_EXTRA_SECONDS;
        for (String name : longestFirst) {
            if (a <= b) {
                split.put(name, "a");
                a += seconds.get(name);
            } else {
                split.put(name, "b");
                b += seconds.get(name);
            }
        }
        return split;
    }

    /** A class with a test tagged device and none tagged two-host, not named as a two-host class. */
    private static boolean isOneHostDeviceClass(String className, TestDescriptor classDescriptor) {
        if (className.endsWith(TwoHostTest.CLASS_SUFFIX)) {
            return false;
        }
        // Every descriptor's tags: a test template's tests do not exist before it runs.
        Collection<TestTag> tags = classDescriptor.getDescendants().stream()
                .flatMap(descriptor -> descriptor.getTags().stream()).collect(Collectors.toSet());
        return tags.contains(TestTag.create(DeviceTest.TAG)) && !tags.contains(TestTag.create(TwoHostTest.TAG));
    }

    private static TestDescriptor root(TestDescriptor descriptor) {
        TestDescriptor root = descriptor;
        while (root.getParent().isPresent()) {
            root = root.getParent().get();
        }
        return root;
    }

    /** The class of the engine's child that holds {@code descriptor} (the outermost class of a nested one). */
    private static Optional<String> topLevelClass(TestDescriptor descriptor) {
        TestDescriptor current = descriptor;
        while (current.getParent().isPresent() && current.getParent().get().getParent().isPresent()) {
            current = current.getParent().get();
        }
        return current.getSource().filter(ClassSource.class::isInstance).map(source -> ((ClassSource) source).getClassName());
    }

    private static Map<String, Double> readSeconds() {
        Properties table = new Properties();
        try (InputStream in = HostShare.class.getResourceAsStream(SECONDS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(SECONDS_RESOURCE + " is missing beside " + HostShare.class.getName());
            }
            table.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return table.stringPropertyNames().stream()
                .collect(Collectors.toUnmodifiableMap(name -> name, name -> Double.parseDouble(table.getProperty(name))));
    }
}
