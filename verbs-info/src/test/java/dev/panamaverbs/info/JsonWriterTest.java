package dev.panamaverbs.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

    @Test
    void writesIndentedJson() {
        String json = new JsonWriter().beginObject()
                .name("a").value(1)
                .name("b").beginArray().value("x").value(true).nullValue().endArray()
                .name("c").beginObject().endObject()
                .name("d").beginArray().endArray()
                .endObject().toString();
        assertEquals("""
                {
                  "a": 1,
                  "b": [
                    "x",
                    true,
                    null
                  ],
                  "c": {},
                  "d": []
                }
                """, json);
    }

    @Test
    void escapesStringsAndWritesUnsignedNumbers() {
        String json = new JsonWriter().beginObject()
                .name("s").value("q\"b\\n\nt\tc\u0001é")
                .name("u").unsignedValue(-1L)
                .endObject().toString();
        Map<?, ?> parsed = (Map<?, ?>) MiniJson.parse(json);
        assertEquals("q\"b\\n\nt\tc\u0001é", parsed.get("s"));
        assertEquals(new BigInteger("18446744073709551615"), parsed.get("u"));
        assertEquals(List.of("s", "u"), List.copyOf(parsed.keySet()));
    }

    @Test
    void refusesMalformedNesting() {
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginObject().value(1));
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginArray().name("x"));
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginObject().name("x").endObject());
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginArray().toString());
        assertThrows(IllegalStateException.class, () -> new JsonWriter().value(1).value(2));
    }
}
