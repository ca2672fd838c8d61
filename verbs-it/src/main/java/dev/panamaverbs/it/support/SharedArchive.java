package dev.panamaverbs.it.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The class-data-sharing archive that a JVM launched by a two-host test starts with, when this run
 * has one: {@code scripts/jvm-cache.sh} makes it once per boot, on host B while host A starts, in
 * the run folder both hosts share ({@value #FOLDER} there), and publishes it only once a JVM used
 * it. Under the VM's emulated CPU that halves a JVM's start-up (docs/suite-time.md).
 *
 * <p>The archive is used read-only ({@code -XX:SharedArchiveFile}); the JVM ignores one that does
 * not fit (never {@code -Xshare:on}), with its own messages off so that they do not mix with the
 * peer's output. A missing archive (not made yet, a one-host run, or a failed training: host B's
 * output says why) means starting without one; both that and its use are printed once.
 */
final class SharedArchive {
    /** The archives' folder in the two-host run folder. */
    static final String FOLDER = "jvm-cache";
    /** Whether the last look found the archive, by archive: a change is printed. */
    private static final Map<Path, Boolean> SEEN = new ConcurrentHashMap<>();

    private SharedArchive() {}

    /** The JVM options that start a JVM of {@code jar} from this run's archive for it; none without one. */
    static List<String> optionsFor(Path jar) {
        return optionsFor(TwoHostEnvironment.fromSystem(), jar);
    }

    /**
     * The options for a JVM of {@code jar} in {@code environment}: {@code -XX:SharedArchiveFile} and
     * its messages off when the run folder has the jar's archive ({@code NAME.jsa} for
     * {@code NAME.jar}), else none.
     */
    static List<String> optionsFor(Optional<TwoHostEnvironment> environment, Path jar) {
        if (environment.isEmpty()) {
            return List.of(); // no run folder: nothing made the archive
        }
        String name = jar.getFileName().toString().replaceFirst("\\.jar$", "") + ".jsa";
        Path archive = environment.get().dir().resolve(FOLDER).resolve(name);
        boolean found = Files.isRegularFile(archive);
        if (!Boolean.valueOf(found).equals(SEEN.put(archive, found))) {
            System.out.println(found ? "shared archive: the JVMs of " + jar.getFileName() + " start from " + archive
                    : "shared archive: no " + archive + " (not made yet, or its training failed: see host B's output):"
                            + " the JVMs of " + jar.getFileName() + " start without one");
        }
        if (!found) {
            return List.of();
        }
        List<String> options = new ArrayList<>();
        options.add("-XX:SharedArchiveFile=" + archive);
        // A usable archive still reports that it was made without this JVM's native-access option.
        options.add("-Xlog:cds*=off,aot*=off");
        return List.copyOf(options);
    }
}
