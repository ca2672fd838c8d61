package dev.panamaverbs.values;

import dev.panamaverbs.internal.LibraryText;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A Java enum that mirrors a verbs.h enum: {@link #value()} is the C value. */
public interface NativeEnum {
    /**
     * The value of the C enumerator this constant stands for.
     *
     * @return the value of the C enumerator this constant stands for
     */
    int value();

    /**
     * A lookup table from C value to constant, built once per enum so that decoding (for example
     * a completion's status on the data path) allocates nothing.
     *
     * @param <E> the enum type
     */
    final class Table<E extends Enum<E> & NativeEnum> {
        /** The tables of the enums libibverbs describes ({@link DescribedEnum}), by enum type. */
        private static final Map<Class<?>, Table<?>> DESCRIBED = new ConcurrentHashMap<>();

        private final E[] byValue;
        private final int offset;
        private final String cName;
        /** libibverbs' {@code <cName>_str} invoker (the text of a {@link DescribedEnum}), or null when it has none. */
        private final LibraryText.StringFunction text;

        /**
         * A table over every constant of {@code type}; {@code cName} names the C enum in errors.
         *
         * @param type the type
         * @param cName the C name
         */
        public Table(Class<E> type, String cName) {
            E[] constants = type.getEnumConstants();
            int min = Integer.MAX_VALUE;
            int max = Integer.MIN_VALUE;
            for (E constant : constants) {
                min = Math.min(min, constant.value());
                max = Math.max(max, constant.value());
            }
            @SuppressWarnings("unchecked")
            E[] table = (E[]) java.lang.reflect.Array.newInstance(type, max - min + 1);
            for (E constant : constants) {
                table[constant.value() - min] = constant;
            }
            this.byValue = table;
            this.offset = min;
            this.cName = cName;
            this.text = LibraryText.function(cName + "_str");
            if (text != null) {
                DESCRIBED.put(type, this);
            }
        }

        /** libibverbs' text for {@code constant}, through its enum's table. */
        static String describe(NativeEnum constant) {
            Table<?> table = DESCRIBED.get(((Enum<?>) constant).getDeclaringClass());
            if (table == null) {
                throw new IllegalStateException(constant + " has no text in libibverbs");
            }
            return LibraryText.of(table.cName + "_str", table.text, constant.value());
        }

        /**
         * The constant for {@code value}, or {@code null} if the C enum value is not known.
         *
         * @param value the C value, as the header defines it
         * @return the constant for {@code value}, or {@code null} if the C enum value is not known
         */
        public E orNull(int value) {
            int index = value - offset;
            return index >= 0 && index < byValue.length ? byValue[index] : null;
        }

        /**
         * The constant for {@code value}; an unknown value is an {@link IllegalArgumentException}.
         *
         * @param value the C value, as the header defines it
         * @return the constant for {@code value}
         */
        public E of(int value) {
            E constant = orNull(value);
            if (constant == null) {
                throw new IllegalArgumentException("unknown " + cName + " value " + value);
            }
            return constant;
        }
    }
}
