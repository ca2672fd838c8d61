package dev.panamaverbs.info;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A small streaming JSON writer (RFC 8259), indented by two spaces: objects, arrays, strings,
 * numbers, booleans and null. It checks the nesting (a name only inside an object, every value
 * inside an object named) so that what it writes always parses.
 */
final class JsonWriter {
    private enum Scope { OBJECT, ARRAY }

    private final StringBuilder out = new StringBuilder();
    private final Deque<Scope> scopes = new ArrayDeque<>();
    /** Whether the current container already holds an element (a comma comes before the next). */
    private final Deque<Boolean> nonEmpty = new ArrayDeque<>();
    private boolean nameWritten;

    JsonWriter beginObject() {
        return open(Scope.OBJECT, '{');
    }

    JsonWriter endObject() {
        return close(Scope.OBJECT, '}');
    }

    JsonWriter beginArray() {
        return open(Scope.ARRAY, '[');
    }

    JsonWriter endArray() {
        return close(Scope.ARRAY, ']');
    }

    /** The name of the next member of the current object. */
    JsonWriter name(String name) {
        if (scopes.peek() != Scope.OBJECT || nameWritten) {
            throw new IllegalStateException("a name belongs inside an object, before its value: " + name);
        }
        separate();
        string(name);
        out.append(": ");
        nameWritten = true;
        return this;
    }

    JsonWriter value(String value) {
        if (value == null) {
            return nullValue();
        }
        beforeValue();
        string(value);
        return this;
    }

    JsonWriter value(long value) {
        beforeValue();
        out.append(value);
        return this;
    }

    /** A C unsigned 64-bit value held in a {@code long}: written as the non-negative number. */
    JsonWriter unsignedValue(long value) {
        beforeValue();
        out.append(Long.toUnsignedString(value));
        return this;
    }

    JsonWriter value(boolean value) {
        beforeValue();
        out.append(value);
        return this;
    }

    JsonWriter nullValue() {
        beforeValue();
        out.append("null");
        return this;
    }

    /** The document; every object and array must be closed. */
    @Override
    public String toString() {
        if (!scopes.isEmpty()) {
            throw new IllegalStateException("unclosed " + scopes.peek().name().toLowerCase(java.util.Locale.ROOT));
        }
        return out.toString();
    }

    private JsonWriter open(Scope scope, char bracket) {
        beforeValue();
        out.append(bracket);
        scopes.push(scope);
        nonEmpty.push(false);
        return this;
    }

    private JsonWriter close(Scope scope, char bracket) {
        if (scopes.peek() != scope || nameWritten) {
            throw new IllegalStateException("cannot close " + scope + " here");
        }
        scopes.pop();
        boolean hadElements = nonEmpty.pop();
        if (hadElements) {
            newline();
        }
        out.append(bracket);
        if (scopes.isEmpty()) {
            out.append('\n');
        }
        return this;
    }

    private void beforeValue() {
        Scope scope = scopes.peek();
        if (scope == Scope.OBJECT) {
            if (!nameWritten) {
                throw new IllegalStateException("a value inside an object needs a name first");
            }
            nameWritten = false;
        } else if (scope == Scope.ARRAY) {
            separate();
        } else if (!out.isEmpty()) {
            throw new IllegalStateException("one top-level value only");
        }
    }

    private void separate() {
        if (nonEmpty.pop()) {
            out.append(',');
        }
        nonEmpty.push(true);
        newline();
    }

    private void newline() {
        out.append('\n').append("  ".repeat(scopes.size()));
    }

    private void string(String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
