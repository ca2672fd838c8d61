package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.AnonymousMember;
import dev.panamaverbs.generator.Model.Array;
import dev.panamaverbs.generator.Model.Field;
import dev.panamaverbs.generator.Model.FunctionPointer;
import dev.panamaverbs.generator.Model.Member;
import dev.panamaverbs.generator.Model.Pointer;
import dev.panamaverbs.generator.Model.Record;
import dev.panamaverbs.generator.Model.RecordRef;
import dev.panamaverbs.generator.Model.Scalar;

import java.util.ArrayList;
import java.util.List;

/** One Java class per C struct or union: LAYOUT, SIZE, offsets and accessors. */
final class RecordEmitter {
    private RecordEmitter() {}

    static String emit(Record r, Target target) {
        StringBuilder out = JavaFile.start(target, target.packageName(), List.of(),
                List.of("java.lang.foreign.FunctionDescriptor", "java.lang.foreign.GroupLayout",
                        "java.lang.foreign.MemoryLayout", "java.lang.foreign.MemorySegment",
                        "java.lang.foreign.SegmentAllocator", "java.lang.foreign.ValueLayout"));
        emitClass(out, r, "", true, target.shortName());
        return out.toString();
    }

    private static void emitClass(StringBuilder out, Record r, String indent, boolean topLevel, String embedder) {
        String in = indent + "    ";
        out.append(indent).append("/**\n").append(indent).append(" * ");
        if (r.opaque()) {
            out.append("{@code ").append(r.cName()).append("} from ").append(r.header())
                    .append(", opaque: only its size (").append(r.size()).append(") and alignment (")
                    .append(r.align()).append(") are known,\n").append(indent)
                    .append(" * because ").append(embedder).append(" structs embed it by value.\n");
        } else if (r.cName() != null) {
            out.append("{@code ").append(r.cName()).append("} from ").append(r.header()).append(": ")
                    .append(r.size()).append(" bytes, aligned to ").append(r.align()).append(".\n");
        } else {
            out.append("The anonymous ").append(r.union() ? "union" : "struct").append(" type of field {@code ")
                    .append(r.javaPath().replace('.', '#')).append("}: ").append(r.size())
                    .append(" bytes, aligned to ").append(r.align()).append(".\n");
        }
        out.append(indent).append(" */\n");
        out.append(indent).append("public ").append(topLevel ? "" : "static ").append("final class ")
                .append(r.javaName()).append(" {\n");
        out.append(in).append("private ").append(r.javaName()).append("() {}\n\n");
        out.append(in).append("/** The C layout: named members, explicit padding. */\n");
        out.append(in).append("public static final GroupLayout LAYOUT = ").append(Layouts.group(r, in));
        if (r.cName() != null || topLevel) {
            out.append(".withName(\"").append(r.javaName()).append("\")");
        }
        out.append(";\n");
        out.append(in).append("/** {@code sizeof}: ").append(r.size()).append(" bytes. */\n");
        out.append(in).append("public static final long SIZE = ").append(r.size()).append("L;\n");
        out.append(in).append("/** {@code alignof}. */\n");
        out.append(in).append("public static final long ALIGNMENT = ").append(r.align()).append("L;\n\n");
        out.append(in).append("/**\n").append(in).append(" * Allocates one zeroed instance.\n").append(in).append(" *\n")
                .append(in).append(" * @param allocator where the memory comes from (an {@code Arena}, say)\n")
                .append(in).append(" * @return a zeroed segment of {@link #SIZE} bytes, aligned to {@link #ALIGNMENT}\n")
                .append(in).append(" */\n");
        out.append(in).append("public static MemorySegment allocate(SegmentAllocator allocator) {\n")
                .append(in).append("    return allocator.allocate(LAYOUT);\n").append(in).append("}\n");
        // No reinterpret(address) helper: it is a restricted method, and this module stays free of
        // them so that it needs no native access of its own.

        List<Placed> fields = new ArrayList<>();
        flatten(r, 0, fields);
        for (Placed p : fields) {
            emitField(out, p.field(), p.offset(), in);
        }
        for (Record nested : r.nested()) {
            out.append('\n');
            emitClass(out, nested, in, false, embedder);
        }
        out.append(indent).append("}\n");
    }

    private record Placed(Field field, long offset) {}

    /** Fields of anonymous members are the parent's fields (C semantics). */
    private static void flatten(Record r, long base, List<Placed> out) {
        for (Member m : r.members()) {
            switch (m) {
                case Field f -> out.add(new Placed(f, base + m.offset()));
                case AnonymousMember a -> flatten(a.record(), base + a.offset(), out);
            }
        }
    }

    private static void emitField(StringBuilder out, Field f, long offset, String in) {
        String n = f.name();
        String c = "{@code " + Names.javadoc(f.cSpelling()) + " " + f.cName() + "}";
        out.append('\n');
        out.append(in).append("/** Offset of ").append(c).append(". */\n");
        out.append(in).append("public static final long ").append(n).append("$OFFSET = ").append(offset).append("L;\n");
        switch (f.type()) {
            case Scalar s -> {
                String layout = "ValueLayout." + s.carrier().layout
                        + (offset % s.carrier().size != 0 ? "_UNALIGNED" : "");
                String t = s.carrier().javaType;
                getter(out, in, c, t, n, "s.get(" + layout + ", " + n + "$OFFSET)");
                setter(out, in, c, t, n, "s.set(" + layout + ", " + n + "$OFFSET, v);");
            }
            case Pointer p -> pointer(out, in, c, n);
            case FunctionPointer fp -> {
                out.append(in).append("/** Descriptor of the function ").append(c).append(" points to. */\n");
                out.append(in).append("public static final FunctionDescriptor ").append(n).append("$DESC = ")
                        .append(Layouts.descriptor(fp.signature())).append(";\n");
                pointer(out, in, c, n);
            }
            case Array a -> slice(out, in, c, n, a.size());
            case RecordRef rr -> slice(out, in, c, n, rr.size());
        }
    }

    private static void pointer(StringBuilder out, String in, String c, String n) {
        getter(out, in, c, "MemorySegment", n, "s.get(ValueLayout.ADDRESS, " + n + "$OFFSET)");
        setter(out, in, c, "MemorySegment", n, "s.set(ValueLayout.ADDRESS, " + n + "$OFFSET, v);");
    }

    private static void slice(StringBuilder out, String in, String c, String n, long size) {
        out.append(in).append("/**\n").append(in).append(" * The slice of {@code s} holding ").append(c).append(".\n")
                .append(in).append(" *\n").append(in).append(" * @param s a segment holding this struct\n")
                .append(in).append(" * @return the field's bytes, a view into {@code s}\n").append(in).append(" */\n");
        out.append(in).append("public static MemorySegment ").append(n).append("(MemorySegment s) {\n")
                .append(in).append("    return s.asSlice(").append(n).append("$OFFSET, ").append(size).append("L);\n")
                .append(in).append("}\n");
        out.append(in).append("/**\n").append(in).append(" * Copies {@code v} into ").append(c).append(".\n")
                .append(in).append(" *\n").append(in).append(" * @param s a segment holding this struct\n")
                .append(in).append(" * @param v the new bytes of the field (its size)\n").append(in).append(" */\n");
        out.append(in).append("public static void ").append(n).append("(MemorySegment s, MemorySegment v) {\n")
                .append(in).append("    MemorySegment.copy(v, 0L, s, ").append(n).append("$OFFSET, ").append(size)
                .append("L);\n").append(in).append("}\n");
    }

    private static void getter(StringBuilder out, String in, String c, String type, String n, String expr) {
        out.append(in).append("/**\n").append(in).append(" * Reads ").append(c).append(".\n")
                .append(in).append(" *\n").append(in).append(" * @param s a segment holding this struct\n")
                .append(in).append(" * @return the field's value").append(type.equals("MemorySegment") ? " (a zero-length segment at the pointer's address)" : "")
                .append("\n").append(in).append(" */\n");
        out.append(in).append("public static ").append(type).append(' ').append(n).append("(MemorySegment s) {\n")
                .append(in).append("    return ").append(expr).append(";\n").append(in).append("}\n");
    }

    private static void setter(StringBuilder out, String in, String c, String type, String n, String stmt) {
        out.append(in).append("/**\n").append(in).append(" * Writes ").append(c).append(".\n")
                .append(in).append(" *\n").append(in).append(" * @param s a segment holding this struct\n")
                .append(in).append(" * @param v the new value").append(type.equals("MemorySegment") ? " (its address is stored)" : "")
                .append("\n").append(in).append(" */\n");
        out.append(in).append("public static void ").append(n).append("(MemorySegment s, ").append(type)
                .append(" v) {\n").append(in).append("    ").append(stmt).append('\n').append(in).append("}\n");
    }
}
