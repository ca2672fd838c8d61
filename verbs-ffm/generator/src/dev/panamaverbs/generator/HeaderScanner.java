package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Clang.Cursor;
import dev.panamaverbs.generator.Clang.Type;
import dev.panamaverbs.generator.Model.AnonymousMember;
import dev.panamaverbs.generator.Model.Array;
import dev.panamaverbs.generator.Model.CType;
import dev.panamaverbs.generator.Model.Carrier;
import dev.panamaverbs.generator.Model.EnumConstant;
import dev.panamaverbs.generator.Model.Field;
import dev.panamaverbs.generator.Model.Function;
import dev.panamaverbs.generator.Model.FunctionPointer;
import dev.panamaverbs.generator.Model.Member;
import dev.panamaverbs.generator.Model.Pointer;
import dev.panamaverbs.generator.Model.Record;
import dev.panamaverbs.generator.Model.RecordRef;
import dev.panamaverbs.generator.Model.Scalar;
import dev.panamaverbs.generator.Model.Signature;
import dev.panamaverbs.generator.Model.Skipped;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Walks the translation unit of a run's header and collects what the emitters need: records
 * (structs and unions), enum constants, functions, macro names. Only declarations whose
 * expansion location is in a header the run owns count. Records from other headers embedded by
 * value are either another run's (referenced in that run's package) or foreign: generated in this
 * run's package, in full when tagged (struct timespec, struct sockaddr_in6), else as opaque
 * layouts (pthread_mutex_t).
 */
final class HeaderScanner {
    private final Target target;
    /** Headers of the other runs ("infiniband/verbs.h") to the package their records are generated in. */
    private final Map<String, String> elsewhere;

    HeaderScanner(Target target, Map<String, String> elsewhere) {
        this.target = target;
        this.elsewhere = elsewhere;
    }

    private boolean owns(String file) {
        return target.owns(file);
    }

    /** The package another run generates the records of {@code file} in, or null. */
    private String packageElsewhere(String file) {
        for (Map.Entry<String, String> e : elsewhere.entrySet()) {
            if (file.equals(e.getKey()) || file.endsWith("/" + e.getKey())) {
                return e.getValue();
            }
        }
        return null;
    }

    final Map<String, Record> records = new TreeMap<>();
    final Map<String, Record> foreignRecords = new TreeMap<>();
    final List<EnumConstant> enumConstants = new ArrayList<>();
    final List<String> enums = new ArrayList<>();
    final Map<String, Function> functions = new LinkedHashMap<>();
    final List<String> objectMacros = new ArrayList<>();
    final List<String> functionMacros = new ArrayList<>();
    final List<Skipped> skipped = new ArrayList<>();
    /** Every non-inline function declaration seen, including ones skipped for their signature. */
    final List<String> declaredFunctions = new ArrayList<>();
    /** File-scope variables declared in the verbs headers. */
    final List<String> variables = new ArrayList<>();
    /** Declarations in preprocessor branches that are not compiled (#ifdef RDMA_STATIC_PROVIDERS ...). */
    final List<Inactive> inactive = new ArrayList<>();
    /** Records of other runs' headers embedded by value: C name to the Java class referenced. */
    final Map<String, String> referenced = new TreeMap<>();
    /** Every function-pointer field of the owned records: record's Java path to its fields. */
    final Map<String, List<Field>> functionPointerFields = new TreeMap<>();
    int structsFound;
    int unionsFound;

    void scan(Cursor translationUnit) {
        for (Cursor c : translationUnit.children()) {
            int kind = c.kind();
            if (kind == Clang.CURSOR_MACRO_DEFINITION) {
                if (owns(c.fileName())) {
                    (c.isMacroFunctionLike() ? functionMacros : objectMacros).add(c.spelling());
                }
                continue;
            }
            String file = c.fileName();
            if (!owns(file)) {
                continue;
            }
            switch (kind) {
                case Clang.CURSOR_STRUCT_DECL, Clang.CURSOR_UNION_DECL -> topLevelRecord(c, file);
                case Clang.CURSOR_ENUM_DECL -> enumDecl(c);
                case Clang.CURSOR_FUNCTION_DECL -> functionDecl(c);
                case Clang.CURSOR_VAR_DECL -> {
                    if (!variables.contains(c.spelling())) {
                        variables.add(c.spelling());
                    }
                }
                default -> { }
            }
        }
    }

    private void topLevelRecord(Cursor decl, String file) {
        if (!decl.isDefinition()) {
            return;
        }
        boolean union = decl.kind() == Clang.CURSOR_UNION_DECL;
        if (decl.isAnonymous()) {
            skipped.add(new Skipped((union ? "union" : "struct") + " (anonymous, top level)",
                    "no tag and no typedef name to call it by"));
            return;
        }
        String tag = decl.spelling();
        if (records.containsKey(tag)) {
            return;
        }
        if (union) {
            unionsFound++;
        } else {
            structsFound++;
        }
        String cName = (union ? "union " : "struct ") + tag;
        records.put(tag, buildRecord(decl, Names.javaIdentifier(tag), Names.javaIdentifier(tag), cName,
                Names.headerName(file)));
    }

    private Record buildRecord(Cursor decl, String javaName, String javaPath, String cName, String header) {
        Type type = decl.type().canonical();
        boolean union = decl.kind() == Clang.CURSOR_UNION_DECL;
        List<Member> members = new ArrayList<>();
        List<Record> nested = new ArrayList<>();
        int anonymousCount = 0;
        for (Cursor child : decl.children()) {
            switch (child.kind()) {
                case Clang.CURSOR_STRUCT_DECL, Clang.CURSOR_UNION_DECL -> {
                    if (child.isAnonymousRecordDecl()) {
                        Record anon = buildRecord(child, "$anon" + anonymousCount++, javaPath, null, header);
                        nested.addAll(anon.nested());
                        members.add(new AnonymousMember(anon, anonymousOffset(type, child)));
                    } else if (!child.isAnonymous()) {
                        // C hoists a tagged definition inside a struct to file scope.
                        topLevelRecord(child, child.fileName());
                    }
                    // Otherwise an anonymous type of a named field: the field handles it.
                }
                case Clang.CURSOR_FIELD_DECL -> {
                    String name = child.spelling();
                    if (child.isBitField()) {
                        throw new IllegalStateException("bit-field " + cName + "." + name + " is not supported");
                    }
                    CType ctype = map(child.type(), javaPath, javaName, name, nested);
                    if (ctype instanceof FunctionPointer fp) {
                        ctype = new FunctionPointer(fp.signature(), parameterNames(child));
                    }
                    members.add(new Field(Names.javaIdentifier(name), name,
                            Names.portableSpelling(child.type().spelling()), ctype, child.offsetOfFieldBits() / 8));
                }
                default -> { }
            }
        }
        Record record = new Record(javaName, javaPath, cName, union, type.size(), type.align(), members, nested,
                false, header);
        // An anonymous member's fields are collected with its parent's (flattened, like the accessors).
        if (owns(decl.fileName()) && !javaName.startsWith("$anon")) {
            collectFunctionPointers(record.javaPath(), members);
        }
        return record;
    }

    /** Function-pointer fields, anonymous members flattened into their parent as the accessors are. */
    private void collectFunctionPointers(String javaPath, List<Member> members) {
        for (Member m : members) {
            switch (m) {
                case Field f when f.type() instanceof FunctionPointer ->
                        functionPointerFields.computeIfAbsent(javaPath, k -> new ArrayList<>()).add(f);
                case Field f -> { }
                case AnonymousMember a -> collectFunctionPointers(javaPath, a.record().members());
            }
        }
    }

    /** The names of a declaration's parameters (PARM_DECL children), "" where C names none. */
    private static List<String> parameterNames(Cursor decl) {
        List<String> names = new ArrayList<>();
        for (Cursor c : decl.children()) {
            if (c.kind() == Clang.CURSOR_PARM_DECL) {
                names.add(c.spelling());
            }
        }
        return names;
    }

    /** Offset of an anonymous member: where its first named leaf field lands in the parent. */
    private static long anonymousOffset(Type parent, Cursor anonymous) {
        String leaf = firstNamedField(anonymous);
        if (leaf == null) {
            throw new IllegalStateException("empty anonymous member in " + parent.spelling());
        }
        long inParent = parent.offsetOfBits(leaf);
        long inAnonymous = anonymous.type().canonical().offsetOfBits(leaf);
        if (inParent < 0 || inAnonymous < 0) {
            throw new IllegalStateException("cannot place anonymous member holding " + leaf);
        }
        return (inParent - inAnonymous) / 8;
    }

    private static String firstNamedField(Cursor record) {
        for (Cursor child : record.children()) {
            if (child.kind() == Clang.CURSOR_FIELD_DECL) {
                return child.spelling();
            }
            if ((child.kind() == Clang.CURSOR_STRUCT_DECL || child.kind() == Clang.CURSOR_UNION_DECL)
                    && child.isAnonymousRecordDecl()) {
                String inner = firstNamedField(child);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    /**
     * Maps a field or parameter type. An anonymous struct/union type of a named field becomes a
     * nested record named after the field, added to {@code nestedSink}.
     */
    private CType map(Type type, String ownerPath, String ownerName, String fieldName, List<Record> nestedSink) {
        Type c = type.canonical();
        int kind = c.kind();
        switch (kind) {
            case Clang.TYPE_POINTER -> {
                Type pointee = c.pointee().canonical();
                if (pointee.kind() == Clang.TYPE_FUNCTION_PROTO || pointee.kind() == Clang.TYPE_FUNCTION_NO_PROTO) {
                    return new FunctionPointer(signature(pointee));
                }
                return new Pointer();
            }
            case Clang.TYPE_CONSTANT_ARRAY -> {
                return new Array(map(c.elementType(), ownerPath, ownerName, fieldName, nestedSink), c.arraySize());
            }
            case Clang.TYPE_INCOMPLETE_ARRAY -> {
                return new Array(map(c.elementType(), ownerPath, ownerName, fieldName, nestedSink), 0);
            }
            case Clang.TYPE_RECORD -> {
                return recordRef(type, c, ownerPath, ownerName, fieldName, nestedSink);
            }
            case Clang.TYPE_FLOAT -> {
                return new Scalar(Carrier.FLOAT);
            }
            case Clang.TYPE_DOUBLE -> {
                return new Scalar(Carrier.DOUBLE);
            }
            default -> {
                if (isInteger(kind)) {
                    return new Scalar(switch ((int) c.size()) {
                        case 1 -> Carrier.BYTE;
                        case 2 -> Carrier.SHORT;
                        case 4 -> Carrier.INT;
                        case 8 -> Carrier.LONG;
                        default -> throw new IllegalStateException("unsupported integer size " + c.spelling());
                    });
                }
                throw new IllegalStateException("unsupported type " + Names.portableSpelling(c.spelling())
                        + " (CXTypeKind " + kind + ")");
            }
        }
    }

    static boolean isInteger(int kind) {
        return kind == Clang.TYPE_ENUM || (kind >= Clang.TYPE_BOOL && kind <= Clang.TYPE_LONGLONG
                && kind != Clang.TYPE_UINT128 && kind != 15 /* wchar */ && kind != 6 && kind != 7);
    }

    static boolean isUnsigned(int kind) {
        return kind >= Clang.TYPE_BOOL && kind <= Clang.TYPE_UINT128 || kind == Clang.TYPE_CHAR_U;
    }

    private CType recordRef(Type written, Type canonical, String ownerPath, String ownerName, String fieldName,
                            List<Record> nestedSink) {
        Cursor decl = canonical.declaration();
        boolean union = decl.kind() == Clang.CURSOR_UNION_DECL;
        long size = canonical.size();
        long align = canonical.align();
        String file = decl.fileName();
        if (decl.isAnonymous()) {
            if (fieldName == null) {
                throw new IllegalStateException("anonymous record type outside a field");
            }
            String name = Names.javaIdentifier(fieldName);
            if (name.equals(ownerName)) {
                name = name + "$"; // a Java class cannot nest a class of its own name
            }
            String path = ownerPath + "." + name;
            for (Record r : nestedSink) {
                if (r.javaPath().equals(path)) {
                    return new RecordRef(path, size, align);
                }
            }
            nestedSink.add(buildRecord(decl, name, path, null, Names.headerName(file)));
            return new RecordRef(path, size, align);
        }
        String tag = decl.spelling();
        if (owns(file)) {
            return new RecordRef(Names.javaIdentifier(tag), size, align);
        }
        String otherPackage = packageElsewhere(file);
        if (otherPackage != null) {
            String javaPath = otherPackage + "." + Names.javaIdentifier(tag);
            referenced.put((union ? "union " : "struct ") + tag, javaPath);
            return new RecordRef(javaPath, size, align);
        }
        // From another header (pthread types): an opaque layout of the right size and alignment.
        String typedefName = innermostTypedefName(written);
        boolean tagged = !tag.isEmpty() && !tag.contains(" ") && !tag.contains("(");
        String javaName = tagged ? tag : typedefName;
        if (javaName == null) {
            throw new IllegalStateException("cannot name record type " + written.spelling());
        }
        String cName = tagged ? (union ? "union " : "struct ") + tag : typedefName;
        if (!foreignRecords.containsKey(javaName)) {
            // A tagged struct (struct timespec) is simple enough to generate in full; the typedef'd
            // anonymous unions of glibc (pthread_mutex_t) are private: size and alignment only.
            foreignRecords.put(javaName, tagged
                    ? buildRecord(decl, javaName, javaName, cName, Names.headerName(file))
                    : new Record(javaName, javaName, cName, union, size, align, List.of(), List.of(), true,
                            Names.headerName(file)));
        }
        return new RecordRef(javaName, size, align);
    }

    private static String innermostTypedefName(Type type) {
        String name = null;
        Type t = type;
        for (int guard = 0; guard < 16; guard++) {
            if (t.kind() == Clang.TYPE_TYPEDEF) {
                name = t.spelling();
                t = t.declaration().typedefUnderlyingType();
            } else if (t.kind() == Clang.TYPE_ELABORATED) {
                t = t.namedType();
            } else {
                break;
            }
        }
        return name;
    }

    Signature signature(Type function) {
        Type result = function.result().canonical();
        CType res = result.kind() == Clang.TYPE_VOID ? null : param(result);
        List<CType> params = new ArrayList<>();
        if (function.kind() == Clang.TYPE_FUNCTION_PROTO) {
            for (int i = 0, n = function.argCount(); i < n; i++) {
                params.add(param(function.arg(i)));
            }
        }
        return new Signature(res, params, function.kind() == Clang.TYPE_FUNCTION_PROTO && function.isVariadic());
    }

    /** Parameters and results: arrays decay to pointers. */
    private CType param(Type type) {
        Type c = type.canonical();
        if (c.kind() == Clang.TYPE_CONSTANT_ARRAY || c.kind() == Clang.TYPE_INCOMPLETE_ARRAY) {
            return new Pointer();
        }
        return map(type, "", "", null, new ArrayList<>());
    }

    private void enumDecl(Cursor decl) {
        if (!decl.isDefinition()) {
            return;
        }
        String name = decl.isAnonymous() ? "enum (anonymous)" : "enum " + decl.spelling();
        boolean unsigned = isUnsigned(decl.enumIntegerType().canonical().kind());
        boolean first = true;
        for (Cursor c : decl.children()) {
            if (c.kind() == Clang.CURSOR_ENUM_CONSTANT_DECL) {
                if (first) {
                    enums.add(enumLabel(name, c.spelling()));
                    first = false;
                }
                enumConstants.add(new EnumConstant(enums.size() - 1, name, c.spelling(),
                        unsigned ? c.enumUnsignedValue() : c.enumValue(), unsigned));
            }
        }
        if (first) {
            enums.add(enumLabel(name, null)); // no constants: nothing to emit
        }
    }

    /** How the coverage report names an enum: anonymous ones by their first constant. */
    static String enumLabel(String name, String firstConstant) {
        return name.equals("enum (anonymous)") ? "enum (anonymous, " + firstConstant + " ...)" : name;
    }

    private void functionDecl(Cursor decl) {
        String name = decl.spelling();
        if (functions.containsKey(name)) {
            return;
        }
        boolean inline = decl.storageClass() == Clang.STORAGE_STATIC || decl.isFunctionInlined();
        if (!inline) {
            declaredFunctions.add(name);
        }
        Type type = decl.type();
        List<String> params = new ArrayList<>();
        for (Cursor c : decl.children()) {
            if (c.kind() == Clang.CURSOR_PARM_DECL) {
                String pname = c.spelling();
                params.add(Names.portableSpelling(c.type().spelling()) + (pname.isEmpty() ? "" : " " + pname));
            }
        }
        String prototype = Names.portableSpelling(type.result().spelling()) + " " + name + "("
                + (params.isEmpty() ? "void" : String.join(", ", params)) + ")";
        Signature signature = null;
        if (!inline) {
            try {
                signature = signature(type);
            } catch (IllegalStateException e) {
                skipped.add(new Skipped("function " + name, e.getMessage()));
                return;
            }
        }
        functions.put(name, new Function(name, prototype, signature, inline, parameterNames(decl)));
    }

    /** What an inactive declaration is: a category of the coverage report. */
    enum InactiveKind { OBJECT_MACRO, FUNCTION_MACRO, FUNCTION, STATIC_INLINE, VARIABLE }

    record Inactive(InactiveKind kind, String name, String where) {}

    private static final Pattern DEFINE = Pattern.compile("^\\s*#\\s*define\\s+(\\w+)(\\()?");
    private static final Pattern FUNCTION = Pattern.compile(
            "^(static\\s+inline\\s+)?(?:extern\\s+)?[A-Za-z_][\\w\\s*]*?\\b(\\w+)\\s*\\(");
    private static final Pattern VARIABLE = Pattern.compile("^extern\\s+[^(;]*?\\b(\\w+)\\s*;");

    /**
     * Reads the lines libclang's preprocessor skipped in the verbs headers and records the
     * macros, functions and variables declared there that are not also declared in an active
     * branch (libclang's preprocessing record shows active macros only). Line-based: one
     * declaration starts at column 0 of a line, as in verbs.h.
     */
    void scanInactive(List<Clang.SkippedRange> ranges) throws IOException {
        Set<String> activeMacros = new HashSet<>(objectMacros);
        activeMacros.addAll(functionMacros);
        Set<String> seen = new HashSet<>();
        for (Clang.SkippedRange r : ranges) {
            if (!owns(r.file())) {
                continue;
            }
            List<String> lines = Files.readAllLines(Path.of(r.file()));
            for (int n = r.first(); n <= r.last() && n <= lines.size(); n++) {
                String line = lines.get(n - 1);
                String where = Names.headerName(r.file()) + ":" + n;
                Matcher d = DEFINE.matcher(line);
                if (d.find()) {
                    String name = d.group(1);
                    if (!activeMacros.contains(name) && seen.add("#" + name)) {
                        inactive.add(new Inactive(d.group(2) != null ? InactiveKind.FUNCTION_MACRO
                                : InactiveKind.OBJECT_MACRO, name, where));
                    }
                    continue;
                }
                if (line.isEmpty() || !Character.isLetter(line.charAt(0)) && line.charAt(0) != '_') {
                    continue; // indented (bodies, continuations), comments, braces, directives
                }
                Matcher f = FUNCTION.matcher(line);
                if (f.find()) {
                    String name = f.group(2);
                    if (!functions.containsKey(name) && !declaredFunctions.contains(name) && seen.add(name)) {
                        inactive.add(new Inactive(f.group(1) != null ? InactiveKind.STATIC_INLINE
                                : InactiveKind.FUNCTION, name, where));
                    }
                    continue;
                }
                Matcher v = VARIABLE.matcher(line);
                if (v.find() && !variables.contains(v.group(1)) && seen.add(v.group(1))) {
                    inactive.add(new Inactive(InactiveKind.VARIABLE, v.group(1), where));
                }
            }
        }
    }
}
