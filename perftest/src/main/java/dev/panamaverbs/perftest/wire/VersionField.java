package dev.panamaverbs.perftest.wire;

import java.nio.charset.StandardCharsets;

/**
 * The version step ({@code exchange_versions}): each side's {@code char version[MAX_VERSION]},
 * all {@value #SIZE} bytes, the version text NUL-padded ({@code strncpy} of {@code VERSION}).
 * perftest reads the peer's with {@code atof}: what follows decides which later steps there are
 * (from 5.1 the MTU step, from 5.32 the system-data step, from 5.33 64-bit iteration counts in
 * the bandwidth reports), and 4.5-0.17 (VERSION "6.06") refuses a peer older than 5.70.
 */
public final class VersionField {
    /** {@code MAX_VERSION}. */
    public static final int SIZE = 16;
    /** What Debian's perftest 4.5+0.17 sends ({@code ib_write_lat --version}: "Version: 6.06"), and so what we send. */
    public static final String PERFTEST_4_5_VERSION = "6.06";
    /** The oldest peer perftest 4.5 accepts ({@code check_version_compatibility}). */
    public static final double OLDEST_COMPATIBLE = 5.70;

    private VersionField() {}

    /** {@code version}, NUL-padded to {@value #SIZE} bytes. */
    public static byte[] encode(String version) {
        byte[] text = version.getBytes(StandardCharsets.US_ASCII);
        if (text.length >= SIZE) {
            throw new IllegalArgumentException("version longer than " + (SIZE - 1) + " bytes: " + version);
        }
        byte[] field = new byte[SIZE];
        System.arraycopy(text, 0, field, 0, text.length);
        return field;
    }

    /** The text up to the first NUL. */
    public static String decode(byte[] field) {
        int end = 0;
        while (end < field.length && field[end] != 0) {
            end++;
        }
        return new String(field, 0, end, StandardCharsets.US_ASCII);
    }

    /**
     * The version number as C's {@code atof} reads it: the longest leading decimal number, 0 when
     * there is none.
     */
    public static double number(String version) {
        String text = version.stripLeading();
        int end = 0;
        boolean dot = false;
        while (end < text.length()) {
            char c = text.charAt(end);
            if (c == '.' && !dot) {
                dot = true;
            } else if (c < '0' || c > '9') {
                break;
            }
            end++;
        }
        String number = text.substring(0, end);
        if (number.isEmpty() || number.equals(".")) {
            return 0;
        }
        return Double.parseDouble(number);
    }
}
