package dev.panamaverbs.values;

import java.nio.ByteOrder;

/**
 * GUIDs (64-bit EUI-64 identifiers of nodes and ports). The C side holds them big-endian
 * ({@code __be64}); this API hands them out in host order, so that {@code Long.toHexString} and
 * {@link #format(long)} read like {@code ibv_devices} and {@code ibv_devinfo}.
 */
public final class Guids {
    private Guids() {}

    /**
     * Host order for a {@code __be64} read as a native-order {@code long} (what the generated accessors return).
     *
     * @param rawBigEndian the {@code __be64} as read in native order
     * @return the GUID in host order
     */
    public static long fromNetworkOrder(long rawBigEndian) {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? Long.reverseBytes(rawBigEndian) : rawBigEndian;
    }

    /**
     * {@code 0x0002c9030012abcdL} -> {@code "0002:c903:0012:abcd"}, the form {@code ibv_devinfo} prints.
     *
     * @param guid the GUID
     * @return {@code 0x0002c9030012abcdL} -> {@code "0002:c903:0012:abcd"}, the form {@code ibv_devinfo} prints
     */
    public static String format(long guid) {
        String hex = String.format("%016x", guid);
        return hex.substring(0, 4) + ':' + hex.substring(4, 8) + ':' + hex.substring(8, 12) + ':' + hex.substring(12);
    }

    /**
     * Parses {@code xxxx:xxxx:xxxx:xxxx} (or 16 hex digits without colons) into a host-order GUID.
     *
     * @throws IllegalArgumentException when the text is not 16 hex digits in that form
     * @param text the GUID as {@code ibv_devinfo} prints it
     * @return the GUID in host order
     */
    public static long parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("GUID text is null");
        }
        String trimmed = text.strip();
        if (!trimmed.matches("[0-9A-Fa-f]{4}(:?[0-9A-Fa-f]{4}){3}") || (trimmed.contains(":") && trimmed.length() != 19)) {
            throw new IllegalArgumentException("not a GUID (xxxx:xxxx:xxxx:xxxx): '" + text + "'");
        }
        return Long.parseUnsignedLong(trimmed.replace(":", ""), 16);
    }
}
