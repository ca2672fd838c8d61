package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.CType;
import dev.panamaverbs.generator.Model.Field;
import dev.panamaverbs.generator.Model.Function;
import dev.panamaverbs.generator.Model.FunctionPointer;
import dev.panamaverbs.generator.Model.Pointer;
import dev.panamaverbs.generator.Model.Signature;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * {@code dev.panamaverbs.gateway.IbverbsCalls} ({@code RdmacmCalls}): the one door the API takes to
 * a library. Every function it exports, under its C name, forwarding to its bound invoker; for
 * verbs.h also the {@code static inline} verbs whose whole body is resolve-guard-call, emitted from the same model as the {@code $calls} invokers (the
 * inline function's parameters, the op's signature). One rule for every verb of {@link #RULES}:
 * refuse a NULL pointer argument (the object's first), resolve the op (through
 * {@code verbs_get_ctx_op} for a {@code struct verbs_context} op, else the object's own field),
 * answer EOPNOTSUPP when it is missing (in {@code errno} for a verb returning a pointer), else
 * call it through the generated invoker. The file goes into the loader module's gateway package
 * (it calls the hand-written {@code Memory} and {@code ExtendedOps} there), not into verbs-ffm.
 */
final class OpsGatewayEmitter {
    private OpsGatewayEmitter() {}

    /** The package of the emitted classes, in the loader module. */
    static final String PACKAGE = "dev.panamaverbs.gateway";

    /**
     * "IbverbsCalls" for libibverbs.so.1, "RdmacmCalls" for librdmacm.so.1: the door's class for
     * the library (not "Rdmacm", which the API's RdmaCm would shadow by a letter's case).
     */
    static String className(Target target) {
        String base = target.soname();
        base = base.startsWith("lib") ? base.substring(3) : base;
        base = base.contains(".") ? base.substring(0, base.indexOf('.')) : base;
        return Character.toUpperCase(base.charAt(0)) + base.substring(1).replaceAll("[^A-Za-z0-9]", "_") + "Calls";
    }

    /** The path of the class under the gateway tree. */
    static String file(Target target) {
        return PACKAGE.replace('.', '/') + "/" + className(target) + ".java";
    }

    /**
     * A resolve-guard-call verb: {@code verb} calls {@code table.op}; {@code object} is the
     * parameter the op is resolved from, of type {@code struct objectStruct} (null: the parameter is
     * the {@code struct ibv_context *} itself); {@code nullable} pointer parameters may be NULL.
     */
    record Rule(String verb, String table, String op, String object, String objectStruct, Set<String> nullable) {
        static Rule vctx(String verb, String op, String object, String objectStruct, String... nullable) {
            return new Rule(verb, "verbs_context", op, object, objectStruct, Set.of(nullable));
        }

        static Rule own(String verb, String objectStruct, String op, String object) {
            return new Rule(verb, objectStruct, op, object, objectStruct, Set.of());
        }

        boolean throughVerbsContext() {
            return table.equals("verbs_context");
        }
    }

    /** The verbs of verbs.h whose body the header writes as resolve-guard-call and nothing else. */
    static final List<Rule> RULES = List.of(
            // device memory, null MRs, thread and parent domains, rate limits
            Rule.vctx("ibv_alloc_dm", "alloc_dm", "context", null),
            Rule.vctx("ibv_free_dm", "free_dm", "dm", "ibv_dm"),
            Rule.own("ibv_memcpy_to_dm", "ibv_dm", "memcpy_to_dm", "dm"),
            Rule.own("ibv_memcpy_from_dm", "ibv_dm", "memcpy_from_dm", "dm"),
            Rule.vctx("ibv_reg_dm_mr", "reg_dm_mr", "pd", "ibv_pd"),
            Rule.vctx("ibv_alloc_null_mr", "alloc_null_mr", "pd", "ibv_pd"),
            Rule.vctx("ibv_alloc_td", "alloc_td", "context", null),
            Rule.vctx("ibv_dealloc_td", "dealloc_td", "td", "ibv_td"),
            Rule.vctx("ibv_alloc_parent_domain", "alloc_parent_domain", "context", null),
            Rule.vctx("ibv_modify_qp_rate_limit", "modify_qp_rate_limit", "qp", "ibv_qp"),
            // flow steering and counters
            Rule.vctx("ibv_create_flow", "ibv_create_flow", "qp", "ibv_qp"),
            Rule.vctx("ibv_destroy_flow", "ibv_destroy_flow", "flow_id", "ibv_flow"),
            Rule.vctx("ibv_create_counters", "create_counters", "context", null),
            Rule.vctx("ibv_destroy_counters", "destroy_counters", "counters", "ibv_counters"),
            Rule.vctx("ibv_attach_counters_point_flow", "attach_counters_point_flow", "counters", "ibv_counters", "flow"),
            Rule.vctx("ibv_read_counters", "read_counters", "counters", "ibv_counters"),
            // XRC
            Rule.vctx("ibv_open_xrcd", "open_xrcd", "context", null),
            Rule.vctx("ibv_close_xrcd", "close_xrcd", "xrcd", "ibv_xrcd"),
            Rule.vctx("ibv_get_srq_num", "get_srq_num", "srq", "ibv_srq"),
            Rule.vctx("ibv_open_qp", "open_qp", "context", null),
            // work queues and RSS indirection tables
            Rule.vctx("ibv_modify_wq", "modify_wq", "wq", "ibv_wq"),
            Rule.vctx("ibv_destroy_wq", "destroy_wq", "wq", "ibv_wq"),
            Rule.own("ibv_post_wq_recv", "ibv_wq", "post_recv", "wq"),
            Rule.vctx("ibv_create_rwq_ind_table", "create_rwq_ind_table", "context", null),
            Rule.vctx("ibv_destroy_rwq_ind_table", "destroy_rwq_ind_table", "rwq_ind_table", "ibv_rwq_ind_table"),
            // completion queues, device values, memory advice
            Rule.vctx("ibv_create_cq_ex", "create_cq_ex", "context", null),
            Rule.vctx("ibv_modify_cq", "modify_cq", "cq", "ibv_cq"),
            Rule.vctx("ibv_query_rt_values_ex", "query_rt_values", "context", null),
            Rule.vctx("ibv_advise_mr", "advise_mr", "pd", "ibv_pd"));

    /**
     * The class's source; {@code written} receives every verb emitted.
     *
     * @param functions the header's functions by name (the inline ones give the parameter names)
     * @param pointers  the function-pointer fields by record
     */
    static String emit(Target target, List<Function> exported, Map<String, Function> functions,
                       Map<String, List<Field>> pointers, List<String> written) {
        boolean ops = target.packageName().equals(Target.BASE_PACKAGE);
        List<Rule> rules = ops ? RULES : List.of();
        String name = className(target);
        List<String> imports = new ArrayList<>(List.of(Target.INVOKE_PACKAGE + "." + target.invokerClass()));
        for (Rule r : rules) {
            addOnce(imports, Target.INVOKE_PACKAGE + "." + r.table() + "$calls");
            addOnce(imports, Target.BASE_PACKAGE + "." + r.table());
            if (r.objectStruct() != null) {
                addOnce(imports, Target.BASE_PACKAGE + "." + r.objectStruct());
            }
        }
        imports.sort(null);
        StringBuilder out = JavaFile.start(target, PACKAGE, imports, List.of("java.lang.foreign.MemorySegment"));
        out.append("/**\n * The verbs of " + target.headerName() + " as the API calls them: the one door to "
                + target.soname() + ".\n *\n");
        out.append(" * <p>Every function the library exports, under its C name, forwarding to its bound invoker\n"
                + " * ({@link " + target.invokerClass() + "}; errno lands in the {@code CallState} segment {@code errno}).\n");
        if (ops) {
            out.append("""
                 *
                 * <p>The {@code static inline} verbs that only resolve an op, guard it and call it, all by
                 * one rule: a NULL pointer argument is refused with {@link IllegalArgumentException} before any
                 * native call; the op comes from {@code struct verbs_context} under {@code verbs_get_ctx_op}'s
                 * guard ({@link ExtendedOps#op}) or from the object's own field; a provider without it answers
                 * {@link OpsTable#EOPNOTSUPP} (in {@code errno} for the verbs that return a pointer, as the
                 * header does); else the op is called through the generated invoker. C's return conventions:
                 * 0 or an errno; a pointer, or 0 with the errno in {@code errno}.
                """);
        }
        out.append(" */\npublic final class ").append(name).append(" {\n    private ").append(name).append("() {}\n");
        for (Function f : exported) {
            emitExported(out, target, f);
            written.add(f.name());
        }
        for (Rule r : rules) {
            InlineOp v = inlineOp(target, functions, pointers, r.table(), r.op(), r.verb(), "function", (f, sig) -> true);
            emitVerb(out, r, v.function(), v.signature(), v.op().name());
            written.add(r.verb());
        }
        out.append("}\n");
        return out.toString();
    }

    private static void emitVerb(StringBuilder out, Rule r, Function f, Signature sig, String opJava) {
        List<String> cNames = f.paramNames();
        if (cNames.size() != sig.params().size() || !cNames.contains(r.object())) {
            throw new IllegalStateException(r.verb() + ": its parameters " + cNames + " do not match " + r.table()
                    + "." + r.op() + "'s " + sig.params().size());
        }
        boolean pointer = sig.result() instanceof Pointer;
        String result = pointer ? "long" : Invokers.javaType(sig.result(), true);
        List<String> params = new ArrayList<>();
        List<String> rawArgs = new ArrayList<>();
        List<String> segmentArgs = new ArrayList<>();
        List<String> checks = new ArrayList<>();
        StringBuilder tags = new StringBuilder();
        if (pointer) {
            params.add("MemorySegment errno");
            tags.append("     * @param errno a {@code CallState} segment: the errno on failure\n");
        }
        String objectJava = Names.javaIdentifier(r.object());
        for (int i = 0; i < cNames.size(); i++) {
            CType type = sig.params().get(i);
            String c = cNames.get(i);
            String name = Names.javaIdentifier(c);
            params.add(Invokers.javaType(type, true) + " " + name);
            rawArgs.add(name);
            boolean isPointer = type instanceof Pointer;
            segmentArgs.add(isPointer ? "MemorySegment.ofAddress(" + name + ")" : name);
            tags.append("     * @param ").append(name).append(" the C argument {@code ").append(c).append('}')
                    .append(isPointer ? " (a pointer, as its address" + (r.nullable().contains(c) ? ", may be 0)" : ")") : "")
                    .append('\n');
            if (isPointer && !r.nullable().contains(c)) {
                String check = "        Memory.requireNonNull(" + name + ", \"" + r.verb() + "\", \"" + c + "\");\n";
                if (c.equals(r.object())) {
                    checks.addFirst(check);
                } else {
                    checks.add(check);
                }
            }
        }
        String where = r.objectStruct() == null ? r.object() : r.object() + "->context";
        String call = r.throughVerbsContext()
                ? "verbs_get_ctx_op(" + where + ", " + r.op() + ")->" + r.op()
                : r.object() + "->" + r.op();
        out.append("\n    /**\n     * {@code ").append(r.verb()).append('(').append(String.join(", ", cNames))
                .append(")}: {@code ").append(call).append('(').append(String.join(", ", cNames)).append(")}.\n     *\n");
        out.append(tags);
        out.append(pointer
                ? "     * @return the pointer, or 0 with the errno in {@code errno} (EOPNOTSUPP when the provider lacks the op)\n"
                : "     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)\n");
        out.append("     */\n");
        out.append("    public static ").append(result).append(' ').append(r.verb()).append('(')
                .append(String.join(", ", params)).append(") {\n");
        checks.forEach(out::append);
        String offset = r.table() + "." + opJava + "$OFFSET";
        String context = r.objectStruct() == null ? objectJava
                : "Memory.readLong(" + objectJava + " + " + r.objectStruct() + ".context$OFFSET)";
        String calls = r.table() + "$calls." + opJava;
        if (pointer) {
            out.append("        MemorySegment function = ExtendedOps.opOrUnsupported(errno, ").append(context).append(", ")
                    .append(offset).append(");\n");
            out.append("        return function == null ? 0 : ").append(calls).append("(function, errno, ")
                    .append(String.join(", ", segmentArgs)).append(").address();\n");
        } else {
            String resolve = r.throughVerbsContext()
                    ? "ExtendedOps.op(" + context + ", " + offset + ")"
                    : "Memory.readLong(" + objectJava + " + " + offset + ")";
            out.append("        long function = ").append(resolve).append(";\n");
            out.append("        return function == 0 ? OpsTable.EOPNOTSUPP\n                : ").append(calls)
                    .append("$raw(MemorySegment.ofAddress(function), ").append(String.join(", ", rawArgs)).append(");\n");
        }
        out.append("    }\n");
    }

    /** The extended-completion readers' class, beside {@code CqEx} (which resolves their ops). */
    static final String CQ_EX_READERS = "CqExReaders";

    /** The path of {@link #CQ_EX_READERS} under the gateway tree. */
    static String cqExReadersFile() {
        return PACKAGE.replace('.', '/') + "/" + CQ_EX_READERS + ".java";
    }

    /**
     * The {@code struct ibv_cq_ex} ops {@code CqEx.Functions} resolves whose verb ({@code ibv_wc_} and
     * the op's name) is resolve-guard-call on the CQ alone: {@code cq->read_x(cq)}.
     */
    static final List<String> CQ_EX_READ_OPS = List.of("read_opcode", "read_vendor_err", "read_byte_len",
            "read_imm_data", "read_qp_num", "read_src_qp", "read_wc_flags", "read_slid", "read_sl",
            "read_dlid_path_bits", "read_completion_ts", "read_completion_wallclock_ns", "read_flow_tag");

    /**
     * {@code CqExReaders}: one method per {@link #CQ_EX_READ_OPS} op, from the inline verb (its name and
     * parameter) and the op's signature, as {@link #emitVerb} does for the ops-table verbs. The op was
     * resolved once ({@code CqEx.resolve}); the method refuses a NULL CQ and calls it through the
     * generated invoker. A {@code uint8_t} result is widened unsigned to {@code int}.
     */
    static String emitCqExReaders(Target target, Map<String, Function> functions, Map<String, List<Field>> pointers) {
        StringBuilder out = openClass(target, "ibv_cq_ex", List.of(), """
                /**
                 * The {@code ibv_wc_read_*} verbs of verbs.h: each calls {@code cq->read_x(cq)} through the function
                 * pointer {@link CqEx#resolve} read once, after a NULL {@code cq} is refused with
                 * {@link IllegalArgumentException}. Call them between {@link CqEx#startPoll} answering 0 and
                 * {@link CqEx#endPoll}, and only for a reader the provider set ({@link CqEx.Functions#has}).
                 * C's values: a {@code uint32_t} (byte_len, vendor_err, flow_tag) in an {@code int} (mask with
                 * 0xFFFFFFFFL); {@code imm_data} as delivered ({@code __be32}); a {@code uint8_t} widened unsigned;
                 * {@code completion_wallclock_ns} in nanoseconds of the host's real-time clock. Nothing allocates.
                 */
                """, CQ_EX_READERS);
        for (String opName : CQ_EX_READ_OPS) {
            String verb = "ibv_wc_" + opName;
            InlineOp v = inlineOp(target, functions, pointers, "ibv_cq_ex", opName, verb, "cq->" + opName + "(cq)",
                    (f, sig) -> f.paramNames().size() == 1 && sig.params().size() == 1
                            && sig.result() instanceof Model.Scalar);
            Field op = v.op();
            Model.Scalar result = (Model.Scalar) v.signature().result();
            String c = v.function().paramNames().getFirst();
            boolean widen = result.carrier() == Model.Carrier.BYTE;
            String call = "ibv_cq_ex$calls." + op.name() + "$raw(fns." + Names.camelCase(opName) + "(), cqx)";
            out.append("\n    /**\n     * {@code ").append(verb).append('(').append(c).append(")}: {@code ").append(c)
                    .append("->").append(opName).append('(').append(c).append(")}.\n     *\n")
                    .append("     * @param fns the function pointers {@link CqEx#resolve} read\n")
                    .append("     * @param cqx the C argument {@code ").append(c).append("} (a {@code struct ibv_cq_ex *}, as its address)\n")
                    .append("     * @return what the op returns").append(widen ? ", widened unsigned" : "").append("\n     */\n");
            out.append("    public static ").append(widen ? "int" : result.carrier().javaType).append(' ')
                    .append(Names.camelCase(opName)).append("(CqEx.Functions fns, long cqx) {\n");
            out.append("        Memory.requireNonNull(cqx, \"").append(verb).append("\", \"").append(c).append("\");\n");
            out.append("        return ").append(widen ? "Byte.toUnsignedInt(" + call + ")" : call).append(";\n    }\n");
        }
        out.append("}\n");
        return out.toString();
    }

    /** The raw-address post verbs' class, beside {@code OpsTable} (which resolves their ops). */
    static final String OPS_TABLE_POSTS = "OpsTablePosts";

    /** The path of {@link #OPS_TABLE_POSTS} under the gateway tree. */
    static String opsTablePostsFile() {
        return PACKAGE.replace('.', '/') + "/" + OPS_TABLE_POSTS + ".java";
    }

    /** The {@code ibv_context_ops} post ops: verb {@code ibv_} and the op's name, {@code $raw} and {@code $critical}. */
    static final List<String> POST_OPS = List.of("post_send", "post_recv", "post_srq_recv");

    /**
     * {@code OpsTablePosts}: for each {@link #POST_OPS} op, the raw-address verb through the function
     * {@code OpsTable.resolveX} read, and its critical twin; every pointer argument refused when NULL
     * (by its C name), then the generated invoker called. From the inline verb (name, parameters) and
     * the op's signature, as {@link #emitVerb} does.
     */
    static String emitOpsTablePosts(Target target, Map<String, Function> functions, Map<String, List<Field>> pointers) {
        StringBuilder out = openClass(target, "ibv_context_ops", List.of("java.lang.foreign.MemorySegment"), """
                /**
                 * The post verbs of verbs.h with raw addresses: {@code object->context->ops.post_x(object, wr, bad_wr)}
                 * through the function {@link OpsTable} resolved once, reading no native memory and allocating
                 * nothing. A NULL pointer argument is refused with {@link IllegalArgumentException} before the
                 * call. Each comes twice: through the ordinary downcall, and through the critical one (no
                 * thread-state transition: only for a provider in {@link ProviderPosts}' table). Returns 0 when
                 * every request was posted, else the errno (providers return it positive or negative), with
                 * the first failed request's address in {@code *bad_wr}.
                 */
                """, OPS_TABLE_POSTS);
        for (String opName : POST_OPS) {
            String verb = "ibv_" + opName;
            InlineOp v = inlineOp(target, functions, pointers, "ibv_context_ops", opName, verb,
                    "ops." + opName + "(object, wr, bad_wr)",
                    (f, sig) -> f.paramNames().size() == 3 && sig.params().size() == 3
                            && sig.params().stream().allMatch(t -> t instanceof Pointer));
            Field op = v.op();
            List<String> c = v.function().paramNames();
            List<String> java = c.stream().map(Names::camelCase).toList();
            for (String downcall : List.of("raw", "critical")) {
                boolean critical = downcall.equals("critical");
                String method = Names.camelCase(opName) + (critical ? "Critical" : "");
                out.append("\n    /**\n     * {@code ").append(verb).append('(').append(String.join(", ", c))
                        .append(")}: {@code ").append(c.get(0)).append("->context->ops.").append(opName).append('(')
                        .append(String.join(", ", c)).append(")}")
                        .append(critical ? ", through the critical downcall" : "").append(".\n     *\n")
                        .append("     * @param function the op {@code OpsTable.resolve").append(Character.toUpperCase(method.charAt(0)))
                        .append(Names.camelCase(opName).substring(1)).append("} returned\n");
                for (int i = 0; i < 3; i++) {
                    out.append("     * @param ").append(java.get(i)).append(" the C argument {@code ").append(c.get(i))
                            .append("} (a pointer, as its address)\n");
                }
                out.append("     * @return 0, or the errno\n     */\n");
                out.append("    public static int ").append(method).append("(MemorySegment function, long ")
                        .append(String.join(", long ", java)).append(") {\n");
                for (int i = 0; i < 3; i++) {
                    out.append("        Memory.requireNonNull(").append(java.get(i)).append(", \"").append(verb)
                            .append("\", \"").append(c.get(i)).append("\");\n");
                }
                out.append("        return ibv_context_ops$calls.").append(op.name()).append('$').append(downcall)
                        .append("(function, ").append(String.join(", ", java)).append(");\n    }\n");
            }
        }
        out.append("}\n");
        return out.toString();
    }

    /** A {@code static inline} verb of the header, the function-pointer field it calls, and that field's signature. */
    private record InlineOp(Function function, Field op, Signature signature) {}

    /**
     * The inline verb {@code verb} and the op {@code table.opName} it calls; the generation fails when
     * either is missing, or when the verb is not inline or not of the {@code shape} it is emitted for
     * ({@code described} in the message).
     */
    private static InlineOp inlineOp(Target target, Map<String, Function> functions, Map<String, List<Field>> pointers,
                                     String table, String opName, String verb, String described,
                                     BiPredicate<Function, Signature> shape) {
        Function f = functions.get(verb);
        Field op = opField(pointers, table, opName, verb);
        Signature sig = ((FunctionPointer) op.type()).signature();
        if (f == null || !f.inline() || !shape.test(f, sig)) {
            throw new IllegalStateException(verb + ": not a static inline " + described + " of " + target.headerName());
        }
        return new InlineOp(f, op, sig);
    }

    /** The function-pointer field {@code table.opName} that {@code verb} calls; a missing one fails the generation. */
    private static Field opField(Map<String, List<Field>> pointers, String table, String opName, String verb) {
        return pointers.getOrDefault(table, List.of()).stream().filter(x -> x.cName().equals(opName)).findFirst()
                .orElseThrow(() -> new IllegalStateException(verb + ": no " + table + "." + opName));
    }

    /** A gateway class calling {@code table}'s {@code $calls}: banner, imports, {@code javadoc}, declaration. */
    private static StringBuilder openClass(Target target, String table, List<String> javaImports, String javadoc,
                                           String name) {
        StringBuilder out = JavaFile.start(target, PACKAGE, List.of(Target.INVOKE_PACKAGE + "." + table + "$calls"),
                javaImports);
        out.append(javadoc).append("public final class ").append(name).append(" {\n    private ").append(name)
                .append("() {}\n");
        return out;
    }

    /** A forwarder with the invoker's very parameters (the same names, so one sed turns a call site). */
    private static void emitExported(StringBuilder out, Target target, Function f) {
        Signature sig = f.signature();
        java.util.Set<String> taken = new java.util.HashSet<>(List.of("t", "errno"));
        List<String> params = new ArrayList<>(List.of("MemorySegment errno"));
        List<String> args = new ArrayList<>(List.of("errno"));
        StringBuilder tags = new StringBuilder("     * @param errno a {@code CallState} segment that receives errno\n");
        for (int i = 0; i < sig.params().size(); i++) {
            String c = i < f.paramNames().size() ? f.paramNames().get(i) : "";
            String name = c.isEmpty() ? "a" + i : Names.javaIdentifier(c);
            while (!taken.add(name)) {
                name = name + "_";
            }
            params.add(Invokers.javaType(sig.params().get(i), false) + " " + name);
            args.add(name);
            tags.append("     * @param ").append(name).append(' ')
                    .append(c.isEmpty() ? "the C function's argument " + (i + 1) : "the C argument {@code " + c + "}").append('\n');
        }
        String result = sig.result() == null ? "void" : Invokers.javaType(sig.result(), false);
        if (sig.result() != null) {
            tags.append("     * @return what the C function returns\n");
        }
        out.append("\n    /**\n     * {@code ").append(Names.javadoc(f.prototype())).append("}: {@link ")
                .append(target.invokerClass()).append('#').append(f.name()).append("}.\n     *\n").append(tags)
                .append("     */\n");
        out.append("    public static ").append(result).append(' ').append(f.name()).append('(')
                .append(String.join(", ", params)).append(") {\n        ")
                .append(result.equals("void") ? "" : "return ").append(target.invokerClass()).append('.')
                .append(f.name()).append('(').append(String.join(", ", args)).append(");\n    }\n");
    }

    private static void addOnce(List<String> list, String value) {
        if (!list.contains(value)) {
            list.add(value);
        }
    }
}
