package dev.panamaverbs.generator;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What one run generates: a header (plus the companion headers it owns), the library that
 * exports its functions, the Java package of its classes, and the names of those classes.
 *
 * @param header         path of the header parsed
 * @param companions     other headers whose declarations count as the header's own
 *                       ("infiniband/verbs_api.h" for verbs.h), as included ("dir/name.h")
 * @param library        path of the shared library whose symbol versions are read
 * @param packageName    package of the layouts, constants and function lists
 * @param symbolPrefix   prefix of the library's symbols that belong to this header (report only)
 * @param classPrefix    Verbs: VerbsConstants, VerbsFunctions, VerbsLayouts
 * @param invokerClass   class of the exported-function invokers in {@link Target#INVOKE_PACKAGE}
 * @param baseVersions   symbol versions every supported library has: their functions are required
 * @param critical       function-pointer fields ("struct.field", a trailing * matches a prefix)
 *                       whose {@code $raw} invoker is built with {@code Linker.Option.critical}
 * @param criticalTwins  function-pointer fields that keep a plain {@code $raw} invoker and get a
 *                       second, critical one, {@code $critical}: the caller picks per provider
 * @param functionsNote  an extra javadoc paragraph for the functions class (may be empty)
 */
record Target(Path header, List<String> companions, Path library, String packageName, String symbolPrefix,
              String classPrefix, String invokerClass, Set<String> baseVersions, List<String> critical,
              List<String> criticalTwins, String functionsNote) {

    /** The package of the invokers and their runtime, shared by every run. */
    static final String INVOKE_PACKAGE = "dev.panamaverbs.ffm.invoke";
    /** The package of the records every run's function lists hold (ExportedFunction, InlineFunction). */
    static final String BASE_PACKAGE = "dev.panamaverbs.ffm";

    /** The two headers of the project: verbs.h, then rdma_cma.h (whose structs embed verbs.h's). */
    static List<Target> defaults() {
        String lib = "/usr/lib/" + Multiarch.triplet() + "/";
        Target verbs = new Target(Path.of("/usr/include/infiniband/verbs.h"), List.of("infiniband/verbs_api.h"),
                Path.of(lib + "libibverbs.so.1"), BASE_PACKAGE, "ibv_", "Verbs", "verbs_h",
                Set.of("IBVERBS_1.0", "IBVERBS_1.1"),
                // The poll loop, and the ibv_qp_ex builders, which only write into the send queue's
                // buffer in every provider that implements them (docs/critical-downcalls.md has the
                // table). start_poll takes the provider's CQ lock and may wait; wr_complete rings rxe's
                // doorbell with a system call; wr_abort is the error path: they stay ordinary calls.
                List.of("ibv_context_ops.poll_cq", "ibv_cq_ex.next_poll", "ibv_cq_ex.end_poll", "ibv_cq_ex.read_*",
                        "ibv_qp_ex.wr_start", "ibv_qp_ex.wr_send*", "ibv_qp_ex.wr_rdma_*", "ibv_qp_ex.wr_atomic_*",
                        "ibv_qp_ex.wr_bind_mw", "ibv_qp_ex.wr_local_inv", "ibv_qp_ex.wr_set_*"),
                // The posts are pure user space in some providers only (mlx5, efa; rxe and siw make a
                // system call): both invokers, chosen per device at run time (ProviderPosts).
                List.of("ibv_context_ops.post_send", "ibv_context_ops.post_recv", "ibv_context_ops.post_srq_recv"),
                """
                 *
                 * <p>{@code ibv_reg_mr} and {@code ibv_query_port} are both: the header declares an exported
                 * function and then hides it behind a function-like macro of the same name (the macro adds
                 * optional behaviour: {@code IBV_ACCESS_OPTIONAL_RANGE} handling, the extended port query).
                 * They appear in both lists.
                """);
        Target rdmacm = new Target(Path.of("/usr/include/rdma/rdma_cma.h"), List.of(),
                Path.of(lib + "librdmacm.so.1"), BASE_PACKAGE + ".rdmacm", "rdma_", "RdmaCm", "rdma_cma_h",
                Set.of("RDMACM_1.0"), List.of(), List.of(), "");
        return List.of(verbs, rdmacm);
    }

    /** "infiniband/verbs.h". */
    String headerName() {
        return Names.headerName(header.toString());
    }

    /** "libibverbs.so.1". */
    String soname() {
        return library.getFileName().toString();
    }

    /** True for a file this run generates declarations of: the header or one of its companions. */
    boolean owns(String file) {
        if (file.equals(header.toString())) {
            return true;
        }
        for (String h : owned()) {
            if (file.equals(h) || file.endsWith("/" + h)) {
                return true;
            }
        }
        return false;
    }

    /** The header and its companions, as included. */
    List<String> owned() {
        List<String> all = new java.util.ArrayList<>(List.of(headerName()));
        all.addAll(companions);
        return all;
    }

    /** "verbs" for verbs.h, "rdma_cma" for rdma/rdma_cma.h. */
    String shortName() {
        String file = header.getFileName().toString();
        return file.endsWith(".h") ? file.substring(0, file.length() - 2) : file;
    }

    /** dev/panamaverbs/ffm/ for dev.panamaverbs.ffm. */
    String dir() {
        return packageName.replace('.', '/') + "/";
    }

    String banner() {
        return "// Generated by panama-verbs' generator from " + headerName() + " - do not edit.\n\n";
    }

    boolean isCritical(String record, String field) {
        return matches(critical, record, field);
    }

    /** Whether the field gets a second, critical {@code $critical} invoker beside its plain {@code $raw}. */
    boolean hasCriticalTwin(String record, String field) {
        return matches(criticalTwins, record, field);
    }

    private static boolean matches(List<String> patterns, String record, String field) {
        String name = record + "." + field;
        for (String c : patterns) {
            if (c.endsWith("*") ? name.startsWith(c.substring(0, c.length() - 1)) : name.equals(c)) {
                return true;
            }
        }
        return false;
    }
}
