package dev.panamaverbs.examples.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command-line parsing the way C's {@code getopt_long} does it, so the Java programs take the
 * same arguments as the C tools they interoperate with: short options from a spec such as
 * {@code "p:d:sv"} ({@code :} after a letter takes a value, attached {@code -p7174} or separate
 * {@code -p 7174}; flags cluster: {@code -vV}), long options {@code --port=7174} or
 * {@code --port 7174} mapped to a short letter, {@code --} ending the options, and every other
 * word an operand (options may come after operands, as with GNU getopt).
 */
public final class GetOpt {
    /** One option as given: its short letter and its value ({@code null} for a flag). */
    public record Option(char letter, String value) {}

    /** What was parsed: the options in order, and the operands. */
    public record Parsed(List<Option> options, List<String> operands) {}

    private final String spec;
    private final Map<String, Character> longNames;

    /**
     * @param spec      the short options, as getopt's optstring
     * @param longNames long option name to short letter (the letter must be in {@code spec})
     */
    public GetOpt(String spec, Map<String, Character> longNames) {
        this.spec = spec;
        this.longNames = new LinkedHashMap<>(longNames);
        longNames.values().forEach(letter -> {
            if (spec.indexOf(letter) < 0) {
                throw new IllegalArgumentException("long option for -" + letter + " not in spec " + spec);
            }
        });
    }

    /** Parses {@code args}; an unknown option or a missing value is an {@link IllegalArgumentException} naming it. */
    public Parsed parse(String... args) {
        List<Option> options = new ArrayList<>();
        List<String> operands = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                operands.addAll(List.of(args).subList(i + 1, args.length));
                break;
            } else if (arg.startsWith("--")) {
                i = parseLong(args, i, options);
            } else if (arg.startsWith("-") && arg.length() > 1) {
                i = parseShort(args, i, options);
            } else {
                operands.add(arg);
            }
        }
        return new Parsed(List.copyOf(options), List.copyOf(operands));
    }

    private int parseLong(String[] args, int i, List<Option> options) {
        String body = args[i].substring(2);
        int eq = body.indexOf('=');
        String name = eq < 0 ? body : body.substring(0, eq);
        Character letter = longNames.get(name);
        if (letter == null) {
            throw new IllegalArgumentException("unrecognized option '--" + name + "'");
        }
        if (!takesValue(letter)) {
            if (eq >= 0) {
                throw new IllegalArgumentException("option '--" + name + "' doesn't allow an argument");
            }
            options.add(new Option(letter, null));
            return i;
        }
        if (eq >= 0) {
            options.add(new Option(letter, body.substring(eq + 1)));
            return i;
        }
        return separateValue(args, i, letter, options, "option '--" + name + "' requires an argument");
    }

    /** Takes the word after {@code args[i]} as the value of {@code letter}; returns its index. */
    private static int separateValue(String[] args, int i, char letter, List<Option> options, String missing) {
        if (i + 1 >= args.length) {
            throw new IllegalArgumentException(missing);
        }
        options.add(new Option(letter, args[i + 1]));
        return i + 1;
    }

    private int parseShort(String[] args, int i, List<Option> options) {
        String arg = args[i];
        for (int at = 1; at < arg.length(); at++) {
            char letter = arg.charAt(at);
            int where = spec.indexOf(letter);
            if (letter == ':' || where < 0) {
                throw new IllegalArgumentException("invalid option -- '" + letter + "'");
            }
            if (!takesValue(letter)) {
                options.add(new Option(letter, null));
                continue;
            }
            if (at + 1 < arg.length()) {
                options.add(new Option(letter, arg.substring(at + 1)));
                return i;
            }
            return separateValue(args, i, letter, options, "option requires an argument -- '" + letter + "'");
        }
        return i;
    }

    private boolean takesValue(char letter) {
        int where = spec.indexOf(letter);
        return where + 1 < spec.length() && spec.charAt(where + 1) == ':';
    }

    /**
     * A number as C's {@code strtol(text, NULL, 0)} reads it: decimal, {@code 0x} hex or leading-0
     * octal, with a sign; unlike C, trailing garbage is an error naming {@code what}.
     */
    public static long number(String text, String what) {
        String t = text.strip();
        boolean negative = t.startsWith("-");
        if (negative || t.startsWith("+")) {
            t = t.substring(1);
        }
        try {
            long value;
            if (t.startsWith("0x") || t.startsWith("0X")) {
                value = Long.parseLong(t.substring(2), 16);
            } else if (t.length() > 1 && t.startsWith("0")) {
                value = Long.parseLong(t.substring(1), 8);
            } else {
                value = Long.parseLong(t);
            }
            return negative ? -value : value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid " + what + ": '" + text + "'");
        }
    }
}
