package dev.panamaverbs.generator;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The few libclang (clang-c/Index.h) entry points the generator needs, bound through FFM.
 * No clang-c headers are installed on Debian without libclang-dev, so the layouts of
 * CXCursor, CXType, CXString and CXSourceLocation are spelled out here.
 *
 * <p>The library path comes from the system property {@code panamaverbs.libclang}, read once
 * when this class initialises. Every struct returned by value is allocated in {@link #ARENA},
 * which lives as long as the generator run (a few megabytes at most).
 */
final class Clang {
    private Clang() {}

    /** libclang-14 in this machine's multiarch library directory. */
    static String defaultLibrary() {
        return "/usr/lib/" + Multiarch.triplet() + "/libclang-14.so.1";
    }

    /** struct CXCursor { enum CXCursorKind kind; int xdata; const void *data[3]; } */
    static final StructLayout CX_CURSOR = MemoryLayout.structLayout(
            JAVA_INT.withName("kind"), JAVA_INT.withName("xdata"),
            MemoryLayout.sequenceLayout(3, ADDRESS).withName("data"));
    /** struct CXType { enum CXTypeKind kind; void *data[2]; } */
    static final StructLayout CX_TYPE = MemoryLayout.structLayout(
            JAVA_INT.withName("kind"), MemoryLayout.paddingLayout(4),
            MemoryLayout.sequenceLayout(2, ADDRESS).withName("data"));
    /** struct CXString { const void *data; unsigned private_flags; } */
    static final StructLayout CX_STRING = MemoryLayout.structLayout(
            ADDRESS.withName("data"), JAVA_INT.withName("private_flags"), MemoryLayout.paddingLayout(4));
    /** struct CXSourceLocation { const void *ptr_data[2]; unsigned int_data; } */
    static final StructLayout CX_SOURCE_LOCATION = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(2, ADDRESS).withName("ptr_data"), JAVA_INT.withName("int_data"),
            MemoryLayout.paddingLayout(4));
    /** struct CXSourceRange { const void *ptr_data[2]; unsigned begin_int_data, end_int_data; } */
    static final StructLayout CX_SOURCE_RANGE = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(2, ADDRESS).withName("ptr_data"), JAVA_INT.withName("begin_int_data"),
            JAVA_INT.withName("end_int_data"));
    /** struct CXUnsavedFile { const char *Filename; const char *Contents; unsigned long Length; } */
    static final StructLayout CX_UNSAVED_FILE = MemoryLayout.structLayout(
            ADDRESS.withName("Filename"), ADDRESS.withName("Contents"), JAVA_LONG.withName("Length"));

    // CXCursorKind values used by the generator.
    static final int CURSOR_STRUCT_DECL = 2;
    static final int CURSOR_UNION_DECL = 3;
    static final int CURSOR_ENUM_DECL = 5;
    static final int CURSOR_FIELD_DECL = 6;
    static final int CURSOR_ENUM_CONSTANT_DECL = 7;
    static final int CURSOR_FUNCTION_DECL = 8;
    static final int CURSOR_VAR_DECL = 9;
    static final int CURSOR_PARM_DECL = 10;
    static final int CURSOR_TYPEDEF_DECL = 20;
    static final int CURSOR_MACRO_DEFINITION = 501;

    // CXTypeKind values used by the generator.
    static final int TYPE_VOID = 2;
    static final int TYPE_BOOL = 3;
    static final int TYPE_CHAR_U = 4;
    static final int TYPE_UCHAR = 5;
    static final int TYPE_USHORT = 8;
    static final int TYPE_UINT = 9;
    static final int TYPE_ULONG = 10;
    static final int TYPE_ULONGLONG = 11;
    static final int TYPE_UINT128 = 12;
    static final int TYPE_CHAR_S = 13;
    static final int TYPE_SCHAR = 14;
    static final int TYPE_SHORT = 16;
    static final int TYPE_INT = 17;
    static final int TYPE_LONG = 18;
    static final int TYPE_LONGLONG = 19;
    static final int TYPE_INT128 = 20;
    static final int TYPE_FLOAT = 21;
    static final int TYPE_DOUBLE = 22;
    static final int TYPE_POINTER = 101;
    static final int TYPE_RECORD = 105;
    static final int TYPE_ENUM = 106;
    static final int TYPE_TYPEDEF = 107;
    static final int TYPE_FUNCTION_NO_PROTO = 110;
    static final int TYPE_FUNCTION_PROTO = 111;
    static final int TYPE_CONSTANT_ARRAY = 112;
    static final int TYPE_INCOMPLETE_ARRAY = 114;
    static final int TYPE_ELABORATED = 119;

    static final int STORAGE_STATIC = 3;            // CX_SC_Static
    static final int EVAL_INT = 1;                  // CXEval_Int
    static final int PARSE_DETAILED_PREPROCESSING_RECORD = 0x01;
    static final int PARSE_SKIP_FUNCTION_BODIES = 0x40;
    static final int DIAGNOSTIC_ERROR = 3;          // CXDiagnostic_Error

    private static final int VISIT_CONTINUE = 1;    // CXChildVisit_Continue

    static final Arena ARENA = Arena.ofShared();
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIB = load();

    private static SymbolLookup load() {
        // libclang's crash recovery installs signal handlers that take the JVM's own SIGSEGV
        // (implicit null checks, safepoints) and kill it: switch it off before the first index.
        MethodHandle setenv = LINKER.downcallHandle(LINKER.defaultLookup().find("setenv").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        try (Arena a = Arena.ofConfined()) {
            int rc = (int) setenv.invokeExact(a.allocateFrom("LIBCLANG_DISABLE_CRASH_RECOVERY"), a.allocateFrom("1"), 1);
            if (rc != 0) {
                throw new IllegalStateException("setenv failed");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return SymbolLookup.libraryLookup(System.getProperty("panamaverbs.libclang", defaultLibrary()), ARENA);
    }

    private static MethodHandle bind(String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(LIB.find(name).orElseThrow(
                () -> new IllegalStateException("libclang lacks " + name)), fd);
    }

    private static FunctionDescriptor fd(MemoryLayout res, MemoryLayout... args) {
        return FunctionDescriptor.of(res, args);
    }

    private static FunctionDescriptor fv(MemoryLayout... args) {
        return FunctionDescriptor.ofVoid(args);
    }

    private static final MethodHandle createIndex = bind("clang_createIndex", fd(ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle parseTranslationUnit = bind("clang_parseTranslationUnit",
            fd(ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle getNumDiagnostics = bind("clang_getNumDiagnostics", fd(JAVA_INT, ADDRESS));
    private static final MethodHandle getDiagnostic = bind("clang_getDiagnostic", fd(ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle getDiagnosticSeverity = bind("clang_getDiagnosticSeverity", fd(JAVA_INT, ADDRESS));
    private static final MethodHandle formatDiagnostic = bind("clang_formatDiagnostic", fd(CX_STRING, ADDRESS, JAVA_INT));
    private static final MethodHandle disposeDiagnostic = bind("clang_disposeDiagnostic", fv(ADDRESS));
    private static final MethodHandle getTranslationUnitCursor = bind("clang_getTranslationUnitCursor", fd(CX_CURSOR, ADDRESS));
    private static final MethodHandle visitChildren = bind("clang_visitChildren", fd(JAVA_INT, CX_CURSOR, ADDRESS, ADDRESS));
    private static final MethodHandle getCursorKind = bind("clang_getCursorKind", fd(JAVA_INT, CX_CURSOR));
    private static final MethodHandle getCursorSpelling = bind("clang_getCursorSpelling", fd(CX_STRING, CX_CURSOR));
    private static final MethodHandle getCString = bind("clang_getCString", fd(ADDRESS, CX_STRING));
    private static final MethodHandle disposeString = bind("clang_disposeString", fv(CX_STRING));
    private static final MethodHandle getCursorType = bind("clang_getCursorType", fd(CX_TYPE, CX_CURSOR));
    private static final MethodHandle getCanonicalType = bind("clang_getCanonicalType", fd(CX_TYPE, CX_TYPE));
    private static final MethodHandle getTypeSpelling = bind("clang_getTypeSpelling", fd(CX_STRING, CX_TYPE));
    private static final MethodHandle typeGetSizeOf = bind("clang_Type_getSizeOf", fd(JAVA_LONG, CX_TYPE));
    private static final MethodHandle typeGetAlignOf = bind("clang_Type_getAlignOf", fd(JAVA_LONG, CX_TYPE));
    private static final MethodHandle typeGetOffsetOf = bind("clang_Type_getOffsetOf", fd(JAVA_LONG, CX_TYPE, ADDRESS));
    private static final MethodHandle cursorGetOffsetOfField = bind("clang_Cursor_getOffsetOfField", fd(JAVA_LONG, CX_CURSOR));
    private static final MethodHandle cursorIsBitField = bind("clang_Cursor_isBitField", fd(JAVA_INT, CX_CURSOR));
    private static final MethodHandle getTypeDeclaration = bind("clang_getTypeDeclaration", fd(CX_CURSOR, CX_TYPE));
    private static final MethodHandle getPointeeType = bind("clang_getPointeeType", fd(CX_TYPE, CX_TYPE));
    private static final MethodHandle getResultType = bind("clang_getResultType", fd(CX_TYPE, CX_TYPE));
    private static final MethodHandle getNumArgTypes = bind("clang_getNumArgTypes", fd(JAVA_INT, CX_TYPE));
    private static final MethodHandle getArgType = bind("clang_getArgType", fd(CX_TYPE, CX_TYPE, JAVA_INT));
    private static final MethodHandle isFunctionTypeVariadic = bind("clang_isFunctionTypeVariadic", fd(JAVA_INT, CX_TYPE));
    private static final MethodHandle getArraySize = bind("clang_getArraySize", fd(JAVA_LONG, CX_TYPE));
    private static final MethodHandle getArrayElementType = bind("clang_getArrayElementType", fd(CX_TYPE, CX_TYPE));
    private static final MethodHandle getEnumConstantDeclValue = bind("clang_getEnumConstantDeclValue", fd(JAVA_LONG, CX_CURSOR));
    private static final MethodHandle getEnumConstantDeclUnsignedValue = bind("clang_getEnumConstantDeclUnsignedValue", fd(JAVA_LONG, CX_CURSOR));
    private static final MethodHandle getEnumDeclIntegerType = bind("clang_getEnumDeclIntegerType", fd(CX_TYPE, CX_CURSOR));
    private static final MethodHandle cursorIsAnonymous = bind("clang_Cursor_isAnonymous", fd(JAVA_INT, CX_CURSOR));
    private static final MethodHandle cursorIsAnonymousRecordDecl = bind("clang_Cursor_isAnonymousRecordDecl", fd(JAVA_INT, CX_CURSOR));
    private static final MethodHandle cursorIsMacroFunctionLike = bind("clang_Cursor_isMacroFunctionLike", fd(JAVA_INT, CX_CURSOR));
    private static final MethodHandle cursorEvaluate = bind("clang_Cursor_Evaluate", fd(ADDRESS, CX_CURSOR));
    private static final MethodHandle evalResultGetKind = bind("clang_EvalResult_getKind", fd(JAVA_INT, ADDRESS));
    private static final MethodHandle evalResultIsUnsignedInt = bind("clang_EvalResult_isUnsignedInt", fd(JAVA_INT, ADDRESS));
    private static final MethodHandle evalResultGetAsUnsigned = bind("clang_EvalResult_getAsUnsigned", fd(JAVA_LONG, ADDRESS));
    private static final MethodHandle evalResultGetAsLongLong = bind("clang_EvalResult_getAsLongLong", fd(JAVA_LONG, ADDRESS));
    private static final MethodHandle evalResultDispose = bind("clang_EvalResult_dispose", fv(ADDRESS));
    private static final MethodHandle getCursorLocation = bind("clang_getCursorLocation", fd(CX_SOURCE_LOCATION, CX_CURSOR));
    private static final MethodHandle getExpansionLocation = bind("clang_getExpansionLocation",
            fv(CX_SOURCE_LOCATION, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle getFileName = bind("clang_getFileName", fd(CX_STRING, ADDRESS));
    private static final MethodHandle isCursorDefinition = bind("clang_isCursorDefinition", fd(JAVA_INT, CX_CURSOR));
    private static final MethodHandle cursorGetStorageClass = bind("clang_Cursor_getStorageClass", fd(JAVA_INT, CX_CURSOR));
    private static final MethodHandle cursorIsFunctionInlined = bind("clang_Cursor_isFunctionInlined", fd(JAVA_INT, CX_CURSOR));
    private static final MethodHandle getTypedefDeclUnderlyingType = bind("clang_getTypedefDeclUnderlyingType", fd(CX_TYPE, CX_CURSOR));
    private static final MethodHandle typeGetNamedType = bind("clang_Type_getNamedType", fd(CX_TYPE, CX_TYPE));
    private static final MethodHandle getAllSkippedRanges = bind("clang_getAllSkippedRanges", fd(ADDRESS, ADDRESS));
    private static final MethodHandle disposeSourceRangeList = bind("clang_disposeSourceRangeList", fv(ADDRESS));
    private static final MethodHandle getRangeStart = bind("clang_getRangeStart", fd(CX_SOURCE_LOCATION, CX_SOURCE_RANGE));
    private static final MethodHandle getRangeEnd = bind("clang_getRangeEnd", fd(CX_SOURCE_LOCATION, CX_SOURCE_RANGE));
    private static final MethodHandle getSpellingLocation = bind("clang_getSpellingLocation",
            fv(CX_SOURCE_LOCATION, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle cursorIsNull = bind("clang_Cursor_isNull", fd(JAVA_INT, CX_CURSOR));

    /** The visitor upcall appends a copy of each child to {@link #collected}. */
    private static List<Cursor> collected;
    private static final MemorySegment VISITOR;

    static {
        try {
            MethodHandle target = MethodHandles.lookup().findStatic(Clang.class, "collectChild",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class));
            VISITOR = LINKER.upcallStub(target, fd(JAVA_INT, CX_CURSOR, CX_CURSOR, ADDRESS), ARENA);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // called from native code through VISITOR
    private static int collectChild(MemorySegment cursor, MemorySegment parent, MemorySegment data) {
        // The by-value cursor only lives for the upcall: copy it.
        collected.add(new Cursor(ARENA.allocate(CX_CURSOR).copyFrom(cursor)));
        return VISIT_CONTINUE;
    }

    /** A CXCursor held by value. */
    record Cursor(MemorySegment seg) {
        int kind() { return (int) call(() -> (int) getCursorKind.invokeExact(seg)); }
        String spelling() { return string(alloc -> (MemorySegment) getCursorSpelling.invokeExact(alloc, seg)); }
        Type type() { return new Type((MemorySegment) call(() -> (MemorySegment) getCursorType.invokeExact(ARENA_ALLOC, seg))); }
        List<Cursor> children() { return Clang.children(this); }
        long offsetOfFieldBits() { return (long) call(() -> (long) cursorGetOffsetOfField.invokeExact(seg)); }
        boolean isBitField() { return flag(() -> (int) cursorIsBitField.invokeExact(seg)); }
        boolean isAnonymous() { return flag(() -> (int) cursorIsAnonymous.invokeExact(seg)); }
        boolean isAnonymousRecordDecl() { return flag(() -> (int) cursorIsAnonymousRecordDecl.invokeExact(seg)); }
        boolean isMacroFunctionLike() { return flag(() -> (int) cursorIsMacroFunctionLike.invokeExact(seg)); }
        boolean isDefinition() { return flag(() -> (int) isCursorDefinition.invokeExact(seg)); }
        boolean isNull() { return flag(() -> (int) cursorIsNull.invokeExact(seg)); }
        boolean isFunctionInlined() { return flag(() -> (int) cursorIsFunctionInlined.invokeExact(seg)); }
        int storageClass() { return (int) call(() -> (int) cursorGetStorageClass.invokeExact(seg)); }
        long enumValue() { return (long) call(() -> (long) getEnumConstantDeclValue.invokeExact(seg)); }
        long enumUnsignedValue() { return (long) call(() -> (long) getEnumConstantDeclUnsignedValue.invokeExact(seg)); }
        Type enumIntegerType() { return new Type((MemorySegment) call(() -> (MemorySegment) getEnumDeclIntegerType.invokeExact(ARENA_ALLOC, seg))); }
        Type typedefUnderlyingType() { return new Type((MemorySegment) call(() -> (MemorySegment) getTypedefDeclUnderlyingType.invokeExact(ARENA_ALLOC, seg))); }

        /** The file this cursor's expansion location is in, as libclang names it, or "". */
        String fileName() {
            MemorySegment loc = (MemorySegment) call(() -> (MemorySegment) getCursorLocation.invokeExact(ARENA_ALLOC, seg));
            MemorySegment file = ARENA.allocate(ADDRESS);
            call(() -> {
                getExpansionLocation.invokeExact(loc, file, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL);
                return null;
            });
            MemorySegment f = file.get(ADDRESS, 0);
            if (f.equals(MemorySegment.NULL)) {
                return "";
            }
            return string(alloc -> (MemorySegment) getFileName.invokeExact(alloc, f));
        }

        /** clang_Cursor_Evaluate as a signed or unsigned 64-bit integer, or null if not an integer. */
        Long evaluateInteger() {
            MemorySegment res = (MemorySegment) call(() -> (MemorySegment) cursorEvaluate.invokeExact(seg));
            if (res.equals(MemorySegment.NULL)) {
                return null;
            }
            try {
                if ((int) call(() -> (int) evalResultGetKind.invokeExact(res)) != EVAL_INT) {
                    return null;
                }
                return flag(() -> (int) evalResultIsUnsignedInt.invokeExact(res))
                        ? (long) call(() -> (long) evalResultGetAsUnsigned.invokeExact(res))
                        : (long) call(() -> (long) evalResultGetAsLongLong.invokeExact(res));
            } finally {
                call(() -> {
                    evalResultDispose.invokeExact(res);
                    return null;
                });
            }
        }
    }

    /** A CXType held by value. */
    record Type(MemorySegment seg) {
        int kind() { return seg.get(JAVA_INT, 0); }
        Type canonical() { return ofCall(() -> (MemorySegment) getCanonicalType.invokeExact(ARENA_ALLOC, seg)); }
        String spelling() { return string(alloc -> (MemorySegment) getTypeSpelling.invokeExact(alloc, seg)); }
        long size() { return (long) call(() -> (long) typeGetSizeOf.invokeExact(seg)); }
        long align() { return (long) call(() -> (long) typeGetAlignOf.invokeExact(seg)); }
        long offsetOfBits(String field) {
            MemorySegment name = ARENA.allocateFrom(field);
            return (long) call(() -> (long) typeGetOffsetOf.invokeExact(seg, name));
        }
        Cursor declaration() {
            return new Cursor((MemorySegment) call(() -> (MemorySegment) getTypeDeclaration.invokeExact(ARENA_ALLOC, seg)));
        }
        Type pointee() { return ofCall(() -> (MemorySegment) getPointeeType.invokeExact(ARENA_ALLOC, seg)); }
        Type result() { return ofCall(() -> (MemorySegment) getResultType.invokeExact(ARENA_ALLOC, seg)); }
        int argCount() { return (int) call(() -> (int) getNumArgTypes.invokeExact(seg)); }
        Type arg(int i) { return ofCall(() -> (MemorySegment) getArgType.invokeExact(ARENA_ALLOC, seg, i)); }
        boolean isVariadic() { return flag(() -> (int) isFunctionTypeVariadic.invokeExact(seg)); }
        long arraySize() { return (long) call(() -> (long) getArraySize.invokeExact(seg)); }
        Type elementType() { return ofCall(() -> (MemorySegment) getArrayElementType.invokeExact(ARENA_ALLOC, seg)); }
        Type namedType() { return ofCall(() -> (MemorySegment) typeGetNamedType.invokeExact(ARENA_ALLOC, seg)); }

        private static Type ofCall(NativeCall c) { return new Type((MemorySegment) call(c)); }
    }

    /** Lines {@code first..last} (1-based, inclusive) of {@code file} were skipped by the preprocessor. */
    record SkippedRange(String file, int first, int last) {}

    /** A parsed translation unit; errors in it are collected, not thrown. */
    record TranslationUnit(MemorySegment handle) {
        Cursor cursor() {
            return new Cursor((MemorySegment) call(() -> (MemorySegment) getTranslationUnitCursor.invokeExact(ARENA_ALLOC, handle)));
        }

        /**
         * The preprocessor's skipped (inactive) regions, as file name and first / last line;
         * needs {@link #PARSE_DETAILED_PREPROCESSING_RECORD}.
         */
        List<SkippedRange> skippedRanges() {
            List<SkippedRange> out = new ArrayList<>();
            MemorySegment list = (MemorySegment) call(() -> (MemorySegment) getAllSkippedRanges.invokeExact(handle));
            if (list.equals(MemorySegment.NULL)) {
                return out;
            }
            MemorySegment l = list.reinterpret(16);
            int count = l.get(JAVA_INT, 0);
            MemorySegment ranges = l.get(ADDRESS, 8).reinterpret(CX_SOURCE_RANGE.byteSize() * count);
            for (int i = 0; i < count; i++) {
                MemorySegment range = ranges.asSlice(i * CX_SOURCE_RANGE.byteSize(), CX_SOURCE_RANGE);
                MemorySegment start = (MemorySegment) call(() -> (MemorySegment) getRangeStart.invokeExact(ARENA_ALLOC, range));
                MemorySegment end = (MemorySegment) call(() -> (MemorySegment) getRangeEnd.invokeExact(ARENA_ALLOC, range));
                MemorySegment file = ARENA.allocate(ADDRESS);
                MemorySegment first = ARENA.allocate(JAVA_INT);
                MemorySegment last = ARENA.allocate(JAVA_INT);
                call(() -> {
                    getSpellingLocation.invokeExact(start, file, first, MemorySegment.NULL, MemorySegment.NULL);
                    getSpellingLocation.invokeExact(end, MemorySegment.NULL, last, MemorySegment.NULL, MemorySegment.NULL);
                    return null;
                });
                MemorySegment f = file.get(ADDRESS, 0);
                String name = f.equals(MemorySegment.NULL) ? ""
                        : string(alloc -> (MemorySegment) getFileName.invokeExact(alloc, f));
                out.add(new SkippedRange(name, first.get(JAVA_INT, 0), last.get(JAVA_INT, 0)));
            }
            call(() -> {
                disposeSourceRangeList.invokeExact(list);
                return null;
            });
            return out;
        }

        List<String> errors() {
            List<String> out = new ArrayList<>();
            int n = (int) call(() -> (int) getNumDiagnostics.invokeExact(handle));
            for (int i = 0; i < n; i++) {
                int index = i;
                MemorySegment d = (MemorySegment) call(() -> (MemorySegment) getDiagnostic.invokeExact(handle, index));
                if ((int) call(() -> (int) getDiagnosticSeverity.invokeExact(d)) >= DIAGNOSTIC_ERROR) {
                    out.add(string(alloc -> (MemorySegment) formatDiagnostic.invokeExact(alloc, d, 0)));
                }
                call(() -> {
                    disposeDiagnostic.invokeExact(d);
                    return null;
                });
            }
            return out;
        }
    }

    /**
     * Parses {@code fileName} with {@code args}; if {@code contents} is not null the file is
     * an in-memory (unsaved) file with that text.
     */
    static TranslationUnit parse(String fileName, String contents, List<String> args, int options) {
        MemorySegment index = (MemorySegment) call(() -> (MemorySegment) createIndex.invokeExact(0, 0));
        MemorySegment argv = ARENA.allocate(ADDRESS, Math.max(1, args.size()));
        for (int i = 0; i < args.size(); i++) {
            argv.setAtIndex(ADDRESS, i, ARENA.allocateFrom(args.get(i)));
        }
        MemorySegment file = ARENA.allocateFrom(fileName);
        MemorySegment unsaved = MemorySegment.NULL;
        int unsavedCount = 0;
        if (contents != null) {
            unsaved = ARENA.allocate(CX_UNSAVED_FILE);
            MemorySegment text = ARENA.allocateFrom(contents);
            unsaved.set(ADDRESS, 0, file);
            unsaved.set(ADDRESS, 8, text);
            unsaved.set(JAVA_LONG, 16, text.byteSize() - 1);
            unsavedCount = 1;
        }
        MemorySegment u = unsaved;
        int uc = unsavedCount;
        int argc = args.size();
        MemorySegment tu = (MemorySegment) call(() ->
                (MemorySegment) parseTranslationUnit.invokeExact(index, file, argv, argc, u, uc, options));
        if (tu.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("libclang could not parse " + fileName);
        }
        return new TranslationUnit(tu);
    }

    static List<Cursor> children(Cursor parent) {
        List<Cursor> previous = collected;
        List<Cursor> out = new ArrayList<>();
        collected = out;
        try {
            call(() -> (int) visitChildren.invokeExact(parent.seg(), VISITOR, MemorySegment.NULL));
        } finally {
            collected = previous;
        }
        return out;
    }

    private static final SegmentAllocator ARENA_ALLOC = ARENA;

    @FunctionalInterface
    private interface NativeCall {
        Object run() throws Throwable;
    }

    @FunctionalInterface
    private interface StringCall {
        MemorySegment run(SegmentAllocator alloc) throws Throwable;
    }

    private static Object call(NativeCall c) {
        try {
            return c.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static boolean flag(NativeCall c) {
        return (int) call(c) != 0;
    }

    /** Calls a CXString-returning function, copies the text, disposes the CXString. */
    private static String string(StringCall c) {
        MemorySegment s = (MemorySegment) call(() -> c.run(ARENA_ALLOC));
        MemorySegment chars = (MemorySegment) call(() -> (MemorySegment) getCString.invokeExact(s));
        String text = chars.equals(MemorySegment.NULL) ? "" : chars.reinterpret(Long.MAX_VALUE).getString(0);
        call(() -> {
            disposeString.invokeExact(s);
            return null;
        });
        return text;
    }
}
