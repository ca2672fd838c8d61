package dev.panamaverbs.examples.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.examples.kv.KeyValueProtocol.Op;
import dev.panamaverbs.examples.kv.KeyValueProtocol.Request;
import dev.panamaverbs.examples.kv.KeyValueProtocol.Response;
import dev.panamaverbs.examples.kv.KeyValueProtocol.Status;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class KeyValueProtocolTest {
    @Test
    void aPutRoundTripsWithItsKeyAndValue() {
        byte[] value = KeyValueService.value(7, 300);
        MemorySegment bytes = KeyValueProtocol.request(Op.PUT, "clé-7", value);
        assertEquals(KeyValueProtocol.REQUEST_HEADER + "clé-7".getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 300,
                bytes.byteSize());
        assertEquals(1, bytes.get(ValueLayout.JAVA_BYTE, 0), "PUT's code on the wire");
        Request request = KeyValueProtocol.decodeRequest(bytes);
        assertEquals(Op.PUT, request.op());
        assertEquals("clé-7", request.key());
        assertArrayEquals(value, request.value());
    }

    @Test
    void getAndDeleteCarryNoValue() {
        Request get = KeyValueProtocol.decodeRequest(KeyValueProtocol.request(Op.GET, "k", new byte[0]));
        assertEquals(Op.GET, get.op());
        assertEquals(0, get.value().length);
        assertThrows(IllegalArgumentException.class, () -> KeyValueProtocol.request(Op.DELETE, "k", new byte[1]));
    }

    @Test
    void responsesRoundTrip() {
        Response found = KeyValueProtocol.decodeResponse(KeyValueProtocol.response(Status.OK, new byte[] {1, 2, 3}));
        assertEquals(Status.OK, found.status());
        assertArrayEquals(new byte[] {1, 2, 3}, found.value());
        assertEquals(Status.NOT_FOUND, KeyValueProtocol.decodeResponse(KeyValueProtocol.response(Status.NOT_FOUND, new byte[0])).status());
    }

    @Test
    void malformedRequestsAreRefusedWithTheReason() {
        MemorySegment good = KeyValueProtocol.request(Op.PUT, "key", new byte[10]);
        IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
                () -> KeyValueProtocol.decodeRequest(good.asSlice(0, good.byteSize() - 1)));
        assertTrue(truncated.getMessage().contains("disagree"), truncated.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KeyValueProtocol.decodeRequest(good.asSlice(0, 4)));
        MemorySegment unknownOp = MemorySegment.ofArray(good.toArray(ValueLayout.JAVA_BYTE));
        unknownOp.set(ValueLayout.JAVA_BYTE, 0, (byte) 9);
        assertThrows(IllegalArgumentException.class, () -> KeyValueProtocol.decodeRequest(unknownOp));
        assertThrows(IllegalArgumentException.class, () -> KeyValueProtocol.request(Op.GET, "", new byte[0]));
    }

    @Test
    void valuesDifferFromKeyToKeyAndAlongTheValue() {
        byte[] a = KeyValueService.value(1, 64), b = KeyValueService.value(2, 64);
        assertTrue(!java.util.Arrays.equals(a, b));
        assertTrue(a[0] != a[1]);
    }
}
