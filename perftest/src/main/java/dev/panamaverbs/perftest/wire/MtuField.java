package dev.panamaverbs.perftest.wire;

import java.nio.charset.StandardCharsets;

/**
 * The MTU step ({@code check_mtu}, peers from 5.1; two bytes from 5.31): the side's MTU as the
 * {@code enum ibv_mtu} value printed in decimal ({@code sprintf("%d")}) and its NUL, e.g.
 * {@code "3\0"} for 1024 bytes. Each side then runs at the smaller of the two when the peer's is
 * valid (1..5, 256..4096 bytes), else at its own.
 */
public final class MtuField {
    /** The step's size from version 5.31 on. */
    public static final int SIZE = 2;

    private MtuField() {}

    /** {@code mtuEnum} (1..5) as its digit and a NUL. */
    public static byte[] encode(int mtuEnum) {
        if (mtuEnum < 1 || mtuEnum > 9) {
            throw new IllegalArgumentException("not an ibv_mtu value: " + mtuEnum);
        }
        return new byte[] {(byte) ('0' + mtuEnum), 0};
    }

    /** The peer's value as C's {@code strtol(rem, NULL, 10)} reads it (0 when not a number). */
    public static int decode(byte[] field) {
        String text = new String(field, StandardCharsets.US_ASCII);
        int end = 0;
        while (end < text.length() && Character.isDigit(text.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(text.substring(0, end));
    }

    /** Whether {@code mtuEnum} is an ibv_mtu perftest accepts from a peer ({@code valid_mtu_size}: 256..4096). */
    public static boolean valid(int mtuEnum) {
        return mtuEnum >= 1 && mtuEnum <= 5;
    }

    /** The MTU both sides run at: the peer's when valid and smaller, else ours. */
    public static int agreed(int mine, int theirs) {
        return valid(theirs) && mine > theirs ? theirs : mine;
    }
}
