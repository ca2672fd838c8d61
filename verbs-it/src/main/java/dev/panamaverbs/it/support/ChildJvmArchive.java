package dev.panamaverbs.it.support;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The class-data-sharing archive of the JVMs started with the staged {@code peer.args} (the misuse
 * fuzz's and the allocation test's children on host A, the peer agent's peer JVMs on host B): one
 * dynamic archive per staging of {@code peer.args}, in this host's temporary folder (the guest's
 * own tmpfs, so once per boot). The first such JVM started on this host writes it at its exit
 * ({@code -XX:ArchiveClassesAtExit}); the ones started after that read it. Under the VM's emulated
 * CPU that takes seconds off each start (docs/suite-time.md).
 *
 * <p>Exactly one JVM writes it (the first to create the writer's claim file), so that two JVMs
 * exiting together never write the same file; the JVMs started while it has not been written start
 * without it. The JVM checks an archive against the module and class path (the jars' sizes and
 * times) and the options that matter to it, and ignores one that does not fit or is not complete
 * (never {@code -Xshare:on}): the archive costs time when it fails, never a wrong class. Its
 * messages are off, so that they do not mix with the output tests parse. {@code VERBS_JVM_CACHE=0}
 * in the environment leaves it out (to measure what it saves).
 */
public final class ChildJvmArchive {
    private static final String QUIET = "-Xlog:cds*=off,aot*=off";

    private ChildJvmArchive() {}

    /** The options that start a JVM of {@code java @argFile} from its archive, or have it write the archive, or none. */
    public static List<String> optionsFor(String argFile) {
        if ("0".equals(System.getenv("VERBS_JVM_CACHE"))) {
            return List.of();
        }
        return optionsFor(Path.of(argFile), Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** As {@link #optionsFor(String)}, with the archive and its claim file in {@code folder}. */
    static List<String> optionsFor(Path argFile, Path folder) {
        String staging;
        try {
            staging = argFile.toAbsolutePath() + "@" + Files.getLastModifiedTime(argFile).toMillis();
        } catch (IOException e) {
            return List.of(); // no readable argfile: the JVM's own start fails and says why
        }
        Path archive = folder.resolve("panama-verbs-" + Integer.toHexString(staging.hashCode()) + ".jsa");
        if (Files.exists(archive)) {
            return List.of("-XX:SharedArchiveFile=" + archive, QUIET);
        }
        try {
            Files.createFile(folder.resolve(archive.getFileName() + ".writer"));
            return List.of("-XX:ArchiveClassesAtExit=" + archive, QUIET);
        } catch (FileAlreadyExistsException e) {
            return List.of(); // another JVM writes it: start without
        } catch (IOException e) {
            return List.of();
        }
    }
}
