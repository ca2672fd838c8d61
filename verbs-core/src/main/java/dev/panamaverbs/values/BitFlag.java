package dev.panamaverbs.values;

import java.util.EnumSet;
import java.util.Set;

/** A Java enum constant that stands for one bit of a verbs.h flags enum. */
public interface BitFlag {
    /**
     * The bit (a power of two) this flag stands for.
     *
     * @return the bit (a power of two) this flag stands for
     */
    int bit();

    /**
     * The C flags word for a set of flags.
     *
     * @param flags the flags to combine
     * @return the C flags word for a set of flags
     */
    static int toBits(Set<? extends BitFlag> flags) {
        int bits = 0;
        for (BitFlag flag : flags) {
            bits |= flag.bit();
        }
        return bits;
    }

    /**
     * The flags of {@code type} set in {@code bits}; bits this version does not know are ignored.
     *
     * @param <E> the enum type
     * @param type the flag enum
     * @param bits the C flags word
     * @return the flags of {@code type} set in {@code bits}
     */
    static <E extends Enum<E> & BitFlag> EnumSet<E> fromBits(Class<E> type, int bits) {
        EnumSet<E> flags = EnumSet.noneOf(type);
        for (E flag : type.getEnumConstants()) {
            if ((bits & flag.bit()) != 0) {
                flags.add(flag);
            }
        }
        return flags;
    }
}
