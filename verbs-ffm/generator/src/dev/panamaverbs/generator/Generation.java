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

/** One generator run: parse, evaluate macros, match symbols, render every file in memory. */
final class Generation {
    private static final String DIR = "dev/panamaverbs/ffm/";

    private final SortedMap<String, String> files = new TreeMap<>();
    private final StringBuilder report = new StringBuilder();
    private final List<String> problems = new ArrayList<>();

    private Generation() {}

    SortedMap<String, String> files() {
        return files;
    }

    /** Coverage errors: found but neither emitted nor skipped with a reason (or the reverse). */
    List<String> problems() {
        return problems;
    }

    String report() {
        return report.toString();
    }

    static Generation run(Path header, Path library, String builtinInclude) throws IOException {
        Generation g = new Generation();
        ElfSymbolVersions elf = ElfSymbolVersions.read(library);
        List<String> args = clangArgs(builtinInclude);

        Clang.TranslationUnit tu = Clang.parse(header.toString(), null, args,
                Clang.PARSE_DETAILED_PREPROCESSING_RECORD | Clang.PARSE_SKIP_FUNCTION_BODIES);
        List<String> errors = tu.errors();
        if (!errors.isEmpty()) {
            throw new IllegalStateException("libclang reported errors parsing " + header + " with " + args
                    + ":\n  " + String.join("\n  ", errors));
        }
        HeaderScanner scan = new HeaderScanner();
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
        g.files.put("module-info.java", IndexEmitter.moduleInfo());
        List<String> structsEmitted = new ArrayList<>();
        List<String> unionsEmitted = new ArrayList<>();
        List<String> foreignEmitted = new ArrayList<>();
        for (Record r : all) {
            String source = RecordEmitter.emit(r);
            g.files.put(DIR + r.javaName() + ".java", source);
            if (source.contains(" LAYOUT = ")) {
                if (scan.foreignRecords.containsValue(r)) {
                    foreignEmitted.add(r.cName());
                } else {
                    (r.union() ? unionsEmitted : structsEmitted).add(r.cName().substring(r.cName().indexOf(' ') + 1));
                }
            }
        }
        g.files.put(DIR + "VerbsLayouts.java", IndexEmitter.layouts(all));
        ConstantsEmitter.Written constants = new ConstantsEmitter.Written();
        g.files.put(DIR + "VerbsConstants.java",
                ConstantsEmitter.emit(scan.enumConstants, macros.constants, new HashSet<>(), constants));
        FunctionsEmitter.Written functions = new FunctionsEmitter.Written();
        g.files.put(DIR + "VerbsFunctions.java", FunctionsEmitter.emit(exported, versions, inline, functions));
        g.files.put(DIR + "ExportedFunction.java", FunctionsEmitter.exportedFunctionRecord());
        g.files.put(DIR + "InlineFunction.java", FunctionsEmitter.inlineFunctionRecord());

        List<String> undeclared = new ArrayList<>();
        for (String symbol : elf.defaultVersions().keySet()) {
            if ((symbol.startsWith("ibv_") || symbol.startsWith("_ibv_")) && !scan.functions.containsKey(symbol)) {
                undeclared.add(symbol + "@@" + elf.versionOf(symbol));
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
        g.report.append(CoverageReport.render(header.toString(), library.toString(), categories, undeclared,
                scan.foreignRecords.values()));
        return g;
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
