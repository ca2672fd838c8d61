package dev.panamaverbs.it.support;

import java.nio.file.Path;
import java.util.List;

/**
 * The class-data-sharing archive of the JVMs started with the staged {@code peer.args} (the misuse
 * fuzz's and the allocation test's children on host A, the peer agent's peer JVMs on host B): one
 * dynamic archive per {@code peer.args} in this host's temporary folder, which the first such JVM
 * writes when it exits ({@code -XX:+AutoCreateSharedArchive}) and the later ones start from. Under
 * the VM's emulated CPU that takes seconds off each start (docs/suite-time.md).
 *
 * <p>The JVM checks the archive against the module and class path (the jars' sizes and times) and
 * the options that matter to it; one that does not fit is ignored and written again at exit, so a
 * stale or foreign archive costs time, never a wrong class. Its messages are off, so that they do
 * not mix with the child's output that tests parse. {@code VERBS_JVM_CACHE=0} in the environment
 * leaves it out (to measure what it saves).
 */
public final class ChildJvmArchive {
    private ChildJvmArchive() {}

    /** The options that start a JVM of {@code java @argFile} from (and, the first time, write) its archive. */
    public static List<String> optionsFor(String argFile) {
        if ("0".equals(System.getenv("VERBS_JVM_CACHE"))) {
            return List.of();
        }
        String name = "panama-verbs-" + Integer.toHexString(Path.of(argFile).toAbsolutePath().toString().hashCode()) + ".jsa";
        Path archive = Path.of(System.getProperty("java.io.tmpdir"), name);
        return List.of("-XX:SharedArchiveFile=" + archive, "-XX:+AutoCreateSharedArchive", "-Xlog:cds*=off,aot*=off");
    }
}
