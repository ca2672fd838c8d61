package dev.panamaverbs.info;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A strict little JSON parser for the tests: objects to maps, arrays to lists, integers to BigInteger. */
final class MiniJson {
    private final String text;
    private int at;

    private MiniJson(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        MiniJson parser = new MiniJson(text);
        Object value = parser.value();
        parser.space();
        if (parser.at != text.length()) {
            throw parser.error("trailing text");
        }
        return value;
    }

    private Object value() {
        space();
        char c = peek();
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        if (empty('{', '}')) {
            return map;
        }
        do {
            space();
            String name = string();
            space();
            expect(':');
            if (map.put(name, value()) != null) {
                throw error("duplicate member " + name);
            }
            space();
        } while (next() == ',');
        closeAfterComma('}');
        return map;
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        if (empty('[', ']')) {
            return list;
        }
        do {
            list.add(value());
            space();
        } while (next() == ',');
        closeAfterComma(']');
        return list;
    }

    /** Reads {@code open} and the spaces after it; reads {@code close} too when it comes next, and says whether it did. */
    private boolean empty(char open, char close) {
        expect(open);
        space();
        if (peek() == close) {
            at++;
            return true;
        }
        return false;
    }

    /** Steps back over the character that was not a comma, which must be {@code close}. */
    private void closeAfterComma(char close) {
        at--;
        expect(close);
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        for (char c = next(); c != '"'; c = next()) {
            if (c < 0x20) {
                throw error("raw control character in a string");
            }
            if (c == '\\') {
                char e = next();
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> throw error("bad escape");
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private BigInteger number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        while (at < text.length() && Character.isDigit(text.charAt(at))) {
            at++;
        }
        if (start == at) {
            throw error("unexpected character");
        }
        return new BigInteger(text.substring(start, at));
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("expected " + word);
        }
        at += word.length();
        return value;
    }

    private void space() {
        while (at < text.length() && " \n\r\t".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private char peek() {
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(at);
    }

    private char next() {
        char c = peek();
        at++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("expected " + c);
        }
    }

    private IllegalArgumentException error(String message) {
        return new IllegalArgumentException(message + " at " + at + ": " + text.substring(Math.max(0, at - 20), Math.min(text.length(), at + 20)));
    }
}
