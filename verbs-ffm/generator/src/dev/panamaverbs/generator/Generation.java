package dev.panamaverbs.generator;

import dev.panamaverbs.generator.CoverageReport.Category;
import dev.panamaverbs.generator.Model.Function;
import dev.panamaverbs.generator.Model.Record;
import dev.panamaverbs.generator.Model.Skipped;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/** One generator run (one {@link Target}): parse, evaluate macros, match symbols, render its files in memory. */
final class Generation {
    private final SortedMap<String, String> files = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();
    private String summary = "";
    private String details = "";

    private Generation() {}

    SortedMap<String, String> files() {
        return files;
    }

    /** Coverage errors: found but neither emitted nor skipped with a reason (or the reverse), nothing found. */
    List<String> problems() {
        return problems;
    }

    /** The report's summary block: no empty line in it. */
    String summary() {
        return summary;
    }

    String details() {
        return details;
    }

    /**
     * @param elsewhere headers of the other runs ("infiniband/verbs.h") to their package: records
     *                  of those headers embedded by value are referenced there, not generated here
     */
    static Generation run(Target target, Map<String, String> elsewhere, String builtinInclude) throws IOException {
        Generation g = new Generation();
        Path header = target.header();
        Path library = target.library();
        String dir = target.dir();
        ElfSymbolVersions elf = ElfSymbolVersions.read(library);
        List<String> args = clangArgs(builtinInclude);

        Clang.TranslationUnit tu = Clang.parse(header.toString(), null, args,
                Clang.PARSE_DETAILED_PREPROCESSING_RECORD | Clang.PARSE_SKIP_FUNCTION_BODIES);
        List<String> errors = tu.errors();
        if (!errors.isEmpty()) {
            throw new IllegalStateException("libclang reported errors parsing " + header + " with " + args
                    + ":\n  " + String.join("\n  ", errors));
        }
        HeaderScanner scan = new HeaderScanner(target, elsewhere);
        scan.scan(tu.cursor());
        scan.scanInactive(tu.skippedRanges());
        MacroEvaluator macros = new MacroEvaluator();
        macros.evaluate(header.toString(), scan.objectMacros, args);

        List<Skipped> skipped = new ArrayList<>(scan.skipped);
        skipped.addAll(macros.skipped);
        List<Function> exported = new ArrayList<>();
        List<FunctionsEmitter.Inline> inline = new ArrayList<>();
        Map<String, String> versions = new TreeMap<>();
        List<String> inlineFound = new ArrayList<>();
        for (Function f : scan.functions.values()) {
            if (f.inline()) {
                inline.add(new FunctionsEmitter.Inline(f.name(), false));
                inlineFound.add(f.name());
                continue;
            }
            String version = elf.versionOf(f.name());
            if (version == null) {
                skipped.add(new Skipped("function " + f.name(), "declared but not exported by " + library.getFileName()));
            } else if (f.signature().variadic()) {
                skipped.add(new Skipped("function " + f.name(), "variadic"));
            } else {
                exported.add(f);
                versions.put(f.name(), version);
            }
        }
        for (String m : scan.functionMacros) {
            inline.add(new FunctionsEmitter.Inline(m, true));
        }

        List<Record> all = new ArrayList<>(scan.records.values());
        all.addAll(scan.foreignRecords.values());
        List<String> structsEmitted = new ArrayList<>();
        List<String> unionsEmitted = new ArrayList<>();
        List<String> foreignEmitted = new ArrayList<>();
        for (Record r : all) {
            String source = RecordEmitter.emit(r, target);
            g.files.put(dir + r.javaName() + ".java", source);
            if (source.contains(" LAYOUT = ")) {
                if (scan.foreignRecords.containsValue(r)) {
                    foreignEmitted.add(r.cName());
                } else {
                    (r.union() ? unionsEmitted : structsEmitted).add(r.cName().substring(r.cName().indexOf(' ') + 1));
                }
            }
        }
        g.files.put(dir + target.classPrefix() + "Layouts.java", IndexEmitter.layouts(target, all));
        ConstantsEmitter.Written constants = new ConstantsEmitter.Written();
        g.files.put(dir + target.classPrefix() + "Constants.java",
                ConstantsEmitter.emit(target, scan.enumConstants, macros.constants, new HashSet<>(), constants));
        FunctionsEmitter.Written functions = new FunctionsEmitter.Written();
        g.files.put(dir + target.classPrefix() + "Functions.java",
                FunctionsEmitter.emit(target, exported, versions, inline, functions));

        String invokeDir = Target.INVOKE_PACKAGE.replace('.', '/') + "/";
        List<String> invoked = new ArrayList<>();
        g.files.put(invokeDir + target.invokerClass() + ".java",
                ExportedInvokerEmitter.emit(target, exported, versions, invoked));
        List<String> pointersFound = new ArrayList<>();
        List<String> pointersInvoked = new ArrayList<>();
        scan.functionPointerFields.forEach((record, fields) -> {
            fields.forEach(f -> pointersFound.add(record + "." + f.cName()));
            g.files.put(invokeDir + FunctionPointerInvokerEmitter.className(record) + ".java",
                    FunctionPointerInvokerEmitter.emit(target, record, fields, pointersInvoked));
        });
        g.files.put(Main.GATEWAY_PREFIX + OpsGatewayEmitter.file(target),
                OpsGatewayEmitter.emit(target, exported, scan.functions, scan.functionPointerFields, new ArrayList<>()));
        if (target.packageName().equals(Target.BASE_PACKAGE)) {
            g.files.put(Main.GATEWAY_PREFIX + OpsGatewayEmitter.cqExReadersFile(),
                    OpsGatewayEmitter.emitCqExReaders(target, scan.functions, scan.functionPointerFields));
            g.files.put(Main.GATEWAY_PREFIX + OpsGatewayEmitter.opsTablePostsFile(),
                    OpsGatewayEmitter.emitOpsTablePosts(target, scan.functions, scan.functionPointerFields));
        }

        List<String> undeclared = new ArrayList<>();
        String prefix = target.symbolPrefix();
        boolean prefixSeen = false;
        for (String symbol : elf.defaultVersions().keySet()) {
            if (symbol.startsWith(prefix) || symbol.startsWith("_" + prefix)) {
                prefixSeen = true;
                if (!scan.functions.containsKey(symbol)) {
                    undeclared.add(symbol + "@@" + elf.versionOf(symbol));
                }
            }
        }
        // found: what libclang (and the text of inactive branches) showed; emitted: what the emitters wrote.
        Category structs = new Category("structs", true);
        Category unions = new Category("unions", true);
        for (Map.Entry<String, Record> e : scan.records.entrySet()) {
            (e.getValue().union() ? unions : structs).found.add(e.getKey());
        }
        structs.emitted(structsEmitted);
        unions.emitted(unionsEmitted);
        Category foreign = new Category("records from other headers, by value", false)
                .found(scan.foreignRecords.values().stream().map(Record::cName).toList()).emitted(foreignEmitted);
        Category enums = new Category("enums", false).found(scan.enums).emitted(constants.enums);
        Category enumConstants = new Category("enum constants", false)
                .found(scan.enumConstants.stream().map(Model.EnumConstant::name).toList())
                .emitted(constants.enumConstants);
        Category defines = new Category("object-like #defines", false).found(scan.objectMacros)
                .emitted(constants.macros);
        Category functionsCategory = new Category("exported functions (non-inline declarations)", true)
                .found(scan.declaredFunctions).emitted(functions.exported());
        Category staticInline = new Category("static inline functions (in INLINE)", false).found(inlineFound)
                .emitted(functions.staticInline());
        Category functionMacros = new Category("function-like macros (in INLINE)", false).found(scan.functionMacros)
                .emitted(functions.macros());
        Category variables = new Category("variables", false).found(scan.variables);
        for (String v : scan.variables) {
            variables.skip(v, "variables are not generated");
        }
        constants.notWritten.forEach((n, reason) -> {
            enumConstants.skip(n, reason);
            defines.skip(n, reason);
        });
        for (Skipped s : skipped) {
            String what = s.what();
            String name = what.substring(what.indexOf(' ') + 1);
            if (what.startsWith("#define ")) {
                defines.skip(name, s.reason());
            } else if (what.startsWith("function ")) {
                functionsCategory.skip(name, s.reason());
            } else if (what.startsWith("struct ")) {
                structs.found.add(name);
                structs.skip(name, s.reason());
            } else if (what.startsWith("union ")) {
                unions.found.add(name);
                unions.skip(name, s.reason());
            } else {
                throw new IllegalStateException("skipped declaration of no category: " + what);
            }
        }
        for (HeaderScanner.Inactive i : scan.inactive) {
            Category c = switch (i.kind()) {
                case OBJECT_MACRO -> defines;
                case FUNCTION_MACRO -> functionMacros;
                case FUNCTION -> functionsCategory;
                case STATIC_INLINE -> staticInline;
                case VARIABLE -> variables;
            };
            c.found.add(i.name());
            c.skip(i.name(), "inactive preprocessor branch (" + i.where() + ")");
        }
        List<Category> categories = List.of(structs, unions, foreign, enums, enumConstants, defines,
                functionsCategory, staticInline, functionMacros, variables);
        g.problems.addAll(CoverageReport.problems(categories));
        if (categories.stream().allMatch(c -> c.found.isEmpty())) {
            g.problems.add("nothing found in " + target.headerName() + ": no struct, union, enum, #define,"
                    + " function or variable declared in it (wrong header, or a header that only includes others?)");
        }
        if (!prefixSeen) {
            g.problems.add(target.soname() + " exports no function named " + prefix + "* (wrong library or prefix?)");
        }
        if (exported.isEmpty() && !scan.declaredFunctions.isEmpty()) {
            g.problems.add("none of the " + scan.declaredFunctions.size() + " functions " + target.headerName()
                    + " declares is exported by " + target.soname() + " (wrong library?)");
        }
        Coverage invokers = new Coverage(exported.size(), invoked.size(), pointersFound.size(), pointersInvoked.size());
        if (!invoked.equals(functions.exported())) {
            g.problems.add("exported functions without an invoker: " + missing(functions.exported(), invoked));
        }
        if (!pointersInvoked.equals(pointersFound)) {
            g.problems.add("function-pointer fields without an invoker: " + missing(pointersFound, pointersInvoked));
        }
        g.summary = CoverageReport.summary(target, categories, invokers, g.problems);
        g.details = CoverageReport.details(target, categories, undeclared, scan.foreignRecords.values(),
                scan.referenced, g.problems);
        return g;
    }

    /** The invoker lines of the report's summary. */
    record Coverage(int exported, int exportedInvoked, int pointerFields, int pointerFieldsInvoked) {}

    private static List<String> missing(List<String> all, List<String> present) {
        List<String> out = new ArrayList<>(all);
        out.removeAll(present);
        return out;
    }

    /** C dialect of the headers and where the compiler's builtin headers (stddef.h) are. */
    static List<String> clangArgs(String builtinInclude) throws IOException {
        String builtin = builtinInclude != null ? builtinInclude : findBuiltinInclude();
        List<String> args = new ArrayList<>(List.of("-x", "c", "-std=gnu11", "-ferror-limit=0"));
        if (builtin != null) {
            args.add("-isystem");
            args.add(builtin);
        }
        return args;
    }

    /**
     * libclang1-14 ships without its resource directory (that is libclang-common-14-dev), so
     * stddef.h comes from gcc's builtin headers, which clang reads fine; clang's own are used
     * if they happen to be installed and gcc is not.
     */
    private static String findBuiltinInclude() throws IOException {
        try {
            Process p = new ProcessBuilder("gcc", "-print-file-name=include").redirectErrorStream(true).start();
            String dir = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor() == 0 && Files.isRegularFile(Path.of(dir, "stddef.h"))) {
                return dir;
            }
        } catch (IOException | InterruptedException e) {
            // no gcc: try clang's resource directory below
        }
        Path llvm = Path.of("/usr/lib/llvm-14/lib/clang");
        if (Files.isDirectory(llvm)) {
            try (Stream<Path> versions = Files.list(llvm)) {
                for (Path v : versions.sorted().toList()) {
                    if (Files.isRegularFile(v.resolve("include/stddef.h"))) {
                        return v.resolve("include").toString();
                    }
                }
            }
        }
        return null;
    }
}
