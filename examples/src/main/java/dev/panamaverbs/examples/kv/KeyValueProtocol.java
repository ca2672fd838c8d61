package dev.panamaverbs.examples.kv;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The key-value service's own bytes inside a request or response message of the messaging layer
 * (the layer carries the correlation id; these are only the payloads), little-endian.
 *
 * <pre>
 * request:  op u8 | reserved u8 (0) | key length u16 | value length u32 | key (UTF-8) | value
 * response: status u8 | reserved 3 bytes (0) | value length u32 | value
 * </pre>
 *
 * A GET or DELETE request has no value; only a GET's OK response has one.
 */
final class KeyValueProtocol {
    static final int REQUEST_HEADER = 8;
    static final int RESPONSE_HEADER = 8;
    /** Keys are short names, never payloads. */
    static final int MAX_KEY_BYTES = 1024;

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private KeyValueProtocol() {}

    /** The operations; on the wire, PUT 1, GET 2, DELETE 3. */
    enum Op {
        PUT, GET, DELETE;

        int code() {
            return ordinal() + 1;
        }

        static Op of(int code) {
            require(code >= 1 && code <= values().length, "no operation has code " + code);
            return values()[code - 1];
        }
    }

    /** The outcomes; on the wire, OK 0, NOT_FOUND 1, BAD_REQUEST 2. */
    enum Status {
        OK, NOT_FOUND, BAD_REQUEST;

        int code() {
            return ordinal();
        }

        static Status of(int code) {
            require(code >= 0 && code < values().length, "no status has code " + code);
            return values()[code];
        }
    }

    /** A decoded request: the value is a copy (empty for GET and DELETE). */
    record Request(Op op, String key, byte[] value) {}

    /** A decoded response: the value is a copy (empty unless a GET found its key). */
    record Response(Status status, byte[] value) {}

    /** The request's bytes, ready for {@code MessageChannel.request}. */
    static MemorySegment request(Op op, String key, byte[] value) {
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        if (keyBytes.length == 0 || keyBytes.length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("a key has 1 to " + MAX_KEY_BYTES + " UTF-8 bytes, not " + keyBytes.length);
        }
        if (op != Op.PUT && value.length != 0) {
            throw new IllegalArgumentException(op + " carries no value");
        }
        MemorySegment bytes = MemorySegment.ofArray(new byte[REQUEST_HEADER + keyBytes.length + value.length]);
        bytes.set(ValueLayout.JAVA_BYTE, 0, (byte) op.code());
        bytes.set(U16, 2, (short) keyBytes.length);
        bytes.set(U32, 4, value.length);
        MemorySegment.copy(keyBytes, 0, bytes, ValueLayout.JAVA_BYTE, REQUEST_HEADER, keyBytes.length);
        MemorySegment.copy(value, 0, bytes, ValueLayout.JAVA_BYTE, REQUEST_HEADER + keyBytes.length, value.length);
        return bytes;
    }

    /**
     * Decodes a request payload.
     *
     * @throws IllegalArgumentException when the bytes are not a well-formed request
     */
    static Request decodeRequest(MemorySegment payload) {
        require(payload.byteSize() >= REQUEST_HEADER, "a request is at least " + REQUEST_HEADER + " bytes, not " + payload.byteSize());
        Op op = Op.of(Byte.toUnsignedInt(payload.get(ValueLayout.JAVA_BYTE, 0)));
        require(payload.get(ValueLayout.JAVA_BYTE, 1) == 0, "the reserved byte is not 0");
        int keyLength = Short.toUnsignedInt(payload.get(U16, 2));
        int valueLength = payload.get(U32, 4);
        require(keyLength > 0 && keyLength <= MAX_KEY_BYTES, "key length " + keyLength + " is out of 1.." + MAX_KEY_BYTES);
        require(valueLength >= 0 && REQUEST_HEADER + (long) keyLength + valueLength == payload.byteSize(),
                "key length " + keyLength + " and value length " + valueLength + " disagree with the " + payload.byteSize() + " bytes");
        require(op == Op.PUT || valueLength == 0, op + " carries no value");
        String key = new String(payload.asSlice(REQUEST_HEADER, keyLength).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        byte[] value = payload.asSlice(REQUEST_HEADER + keyLength, valueLength).toArray(ValueLayout.JAVA_BYTE);
        return new Request(op, key, value);
    }

    /** The response's bytes, ready for {@code MessageChannel.respond}. */
    static MemorySegment response(Status status, byte[] value) {
        MemorySegment bytes = MemorySegment.ofArray(new byte[RESPONSE_HEADER + value.length]);
        bytes.set(ValueLayout.JAVA_BYTE, 0, (byte) status.code());
        bytes.set(U32, 4, value.length);
        MemorySegment.copy(value, 0, bytes, ValueLayout.JAVA_BYTE, RESPONSE_HEADER, value.length);
        return bytes;
    }

    /**
     * Decodes a response payload.
     *
     * @throws IllegalArgumentException when the bytes are not a well-formed response
     */
    static Response decodeResponse(MemorySegment payload) {
        require(payload.byteSize() >= RESPONSE_HEADER, "a response is at least " + RESPONSE_HEADER + " bytes, not " + payload.byteSize());
        Status status = Status.of(Byte.toUnsignedInt(payload.get(ValueLayout.JAVA_BYTE, 0)));
        int valueLength = payload.get(U32, 4);
        require(valueLength >= 0 && RESPONSE_HEADER + (long) valueLength == payload.byteSize(),
                "value length " + valueLength + " disagrees with the " + payload.byteSize() + " bytes");
        return new Response(status, payload.asSlice(RESPONSE_HEADER, valueLength).toArray(ValueLayout.JAVA_BYTE));
    }

    private static void require(boolean condition, String why) {
        if (!condition) {
            throw new IllegalArgumentException("bad key-value message: " + why);
        }
    }
}
