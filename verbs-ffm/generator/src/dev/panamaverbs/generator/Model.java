package dev.panamaverbs.generator;

import java.util.List;

/** What the scanner extracts from the header, independent of libclang. */
final class Model {
    private Model() {}

    /** A C type as the generated code sees it (canonical: typedefs resolved). */
    sealed interface CType permits Scalar, Pointer, FunctionPointer, Array, RecordRef {
        long size();
        long align();
    }

    /** Primitive Java carriers of C scalars. */
    enum Carrier {
        BYTE(1), SHORT(2), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

        /** The Java primitive: the constant's name in lower case. */
        final String javaType = name().toLowerCase(java.util.Locale.ROOT);
        /** The ValueLayout constant: JAVA_ and the constant's name. */
        final String layout = "JAVA_" + name();
        final long size;

        Carrier(long size) {
            this.size = size;
        }
    }

    record Scalar(Carrier carrier) implements CType {
        public long size() { return carrier.size; }
        public long align() { return carrier.size; }
    }

    record Pointer() implements CType {
        public long size() { return 8; }
        public long align() { return 8; }
    }

    /**
     * A pointer to a function; {@code signature} gives its descriptor, {@code paramNames} the
     * parameter names of the declarator where C gives them (else empty strings, or an empty list).
     */
    record FunctionPointer(Signature signature, List<String> paramNames) implements CType {
        FunctionPointer(Signature signature) {
            this(signature, List.of());
        }

        public long size() { return 8; }
        public long align() { return 8; }
    }

    /** {@code count} elements; count 0 for a flexible array member. */
    record Array(CType element, long count) implements CType {
        public long size() { return element.size() * count; }
        public long align() { return element.align(); }
    }

    /** A struct or union by value; {@code javaPath} names its class, e.g. ibv_send_wr.wr. */
    record RecordRef(String javaPath, long size, long align) implements CType {}

    /** A function type; {@code result} null for void. */
    record Signature(CType result, List<CType> params, boolean variadic) {}

    /** A member of a record: a named field, or an anonymous struct/union flattened into it. */
    sealed interface Member permits Field, AnonymousMember {
        long offset();
    }

    record Field(String name, String cName, String cSpelling, CType type, long offset) implements Member {}

    /** {@code struct { ... };} or {@code union { ... };} without a field name. */
    record AnonymousMember(Record record, long offset) implements Member {}

    /**
     * A struct or union. {@code javaName} is the class name (the C tag, typedef name, or the
     * field name for a nested anonymous type); {@code cName} is how C spells the type
     * ("struct ibv_qp", "pthread_mutex_t"), null for nested anonymous ones. Opaque records
     * (from headers other than verbs.h, only embedded by value) keep size and alignment only.
     */
    record Record(String javaName, String javaPath, String cName, boolean union, long size, long align,
                  List<Member> members, List<Record> nested, boolean opaque, String header) {}

    /** {@code enumIndex}: which enum declaration of the header, counting from 0. */
    record EnumConstant(int enumIndex, String enumName, String name, long value, boolean unsigned) {}

    record MacroConstant(String name, long value, boolean unsigned) {}

    /**
     * A function declared in the header; {@code inline} for static inline ones; {@code paramNames}
     * as declared (empty strings where the prototype names none).
     */
    record Function(String name, String prototype, Signature signature, boolean inline, List<String> paramNames) {}

    record Skipped(String what, String reason) {}
}
