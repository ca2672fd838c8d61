package dev.panamaverbs.internal;

import java.nio.ByteOrder;

/**
 * {@code htonl} and {@code ntohl} for immediate data ({@code __be32 imm_data}): the raw int a
 * host stores in the field, for a value in host order, and back.
 */
public final class ImmediateData {
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private ImmediateData() {}

    /** {@code htonl(value)}: the raw field bits whose bytes in memory are {@code value}, big-endian. */
    public static int toWire(int value) {
        return LITTLE_ENDIAN ? Integer.reverseBytes(value) : value;
    }

    /** {@code ntohl(raw)}. */
    public static int fromWire(int raw) {
        return toWire(raw);
    }
}
