package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.AnonymousMember;
import dev.panamaverbs.generator.Model.Array;
import dev.panamaverbs.generator.Model.CType;
import dev.panamaverbs.generator.Model.Field;
import dev.panamaverbs.generator.Model.FunctionPointer;
import dev.panamaverbs.generator.Model.Member;
import dev.panamaverbs.generator.Model.Pointer;
import dev.panamaverbs.generator.Model.Record;
import dev.panamaverbs.generator.Model.RecordRef;
import dev.panamaverbs.generator.Model.Scalar;
import dev.panamaverbs.generator.Model.Signature;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Java source expressions for memory layouts and function descriptors. */
final class Layouts {
    private Layouts() {}

    /** The layout of a value of {@code type} (no name). */
    static String of(CType type) {
        return switch (type) {
            case Scalar s -> "ValueLayout." + s.carrier().layout;
            case Pointer p -> "ValueLayout.ADDRESS";
            case FunctionPointer f -> "ValueLayout.ADDRESS";
            case Array a -> "MemoryLayout.sequenceLayout(" + a.count() + "L, " + of(a.element()) + ")";
            case RecordRef r -> r.javaPath() + ".LAYOUT";
        };
    }

    /** The descriptor of a C function type. */
    static String descriptor(Signature sig) {
        if (sig.variadic()) {
            throw new IllegalStateException("variadic functions have no fixed descriptor");
        }
        List<String> args = new ArrayList<>();
        for (CType p : sig.params()) {
            args.add(of(p));
        }
        String joined = String.join(", ", args);
        return sig.result() == null
                ? "FunctionDescriptor.ofVoid(" + joined + ")"
                : "FunctionDescriptor.of(" + of(sig.result()) + (args.isEmpty() ? "" : ", " + joined) + ")";
    }

    /**
     * The group layout of a record: members in offset order with explicit padding between them
     * and at the end, so that size, offsets and alignment match C exactly.
     */
    static String group(Record r, String indent) {
        if (r.opaque()) {
            return "MemoryLayout.structLayout(MemoryLayout.sequenceLayout(" + r.size()
                    + "L, ValueLayout.JAVA_BYTE).withName(\"$opaque\"))" + alignment(r.align(), 1);
        }
        String inner = indent + "    ";
        List<String> parts = new ArrayList<>();
        long maxAlign = 1;
        List<Member> members = new ArrayList<>(r.members());
        members.sort(Comparator.comparingLong(Member::offset));
        long cursor = 0;
        long maxEnd = 0;
        for (Member m : members) {
            long align = memberAlign(m);
            if (m.offset() % align != 0) {
                throw new IllegalStateException("misaligned (packed) member in " + r.javaPath());
            }
            maxAlign = Math.max(maxAlign, align);
            String expr = switch (m) {
                case Field f -> of(f.type()) + ".withName(\"" + f.cName() + "\")";
                case AnonymousMember a -> group(a.record(), inner) + ".withName(\"" + a.record().javaName() + "\")";
            };
            long size = switch (m) {
                case Field f -> f.type().size();
                case AnonymousMember a -> a.record().size();
            };
            if (r.union()) {
                if (m.offset() != 0) {
                    throw new IllegalStateException("union member at non-zero offset in " + r.javaPath());
                }
                parts.add(expr);
                maxEnd = Math.max(maxEnd, size);
            } else {
                if (m.offset() < cursor) {
                    throw new IllegalStateException("overlapping members in " + r.javaPath());
                }
                if (m.offset() > cursor) {
                    parts.add("MemoryLayout.paddingLayout(" + (m.offset() - cursor) + "L)");
                }
                parts.add(expr);
                cursor = m.offset() + size;
                maxEnd = cursor;
            }
        }
        if (r.size() > maxEnd) {
            parts.add("MemoryLayout.paddingLayout(" + (r.size() - maxEnd) + "L)");
        }
        if (maxAlign > r.align()) {
            throw new IllegalStateException(r.javaPath() + " is packed below its members' alignment");
        }
        String kind = r.union() ? "unionLayout" : "structLayout";
        if (parts.isEmpty()) {
            return "MemoryLayout." + kind + "()" + alignment(r.align(), maxAlign);
        }
        return "MemoryLayout." + kind + "(\n" + inner + String.join(",\n" + inner, parts) + ")"
                + alignment(r.align(), maxAlign);
    }

    private static String alignment(long wanted, long natural) {
        return wanted > natural ? ".withByteAlignment(" + wanted + "L)" : "";
    }

    private static long memberAlign(Member m) {
        return switch (m) {
            case Field f -> f.type().align();
            case AnonymousMember a -> a.record().align();
        };
    }
}
