package dev.panamaverbs.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.panamaverbs.RemoteRegion;
import dev.panamaverbs.ffm.rdmacm.rdma_cm_event;
import dev.panamaverbs.ffm.rdmacm.rdma_conn_param;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.Mtu;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The decoders of what a peer sends, fed seeded random messages and every field at its
 * boundaries: the endpoint exchange's message ({@link EndpointExchange#decode}, documented to
 * throw {@link EndpointExchangeException} only), the one-sided window descriptor
 * ({@link WindowDescriptor#fromBytes}, {@link IllegalArgumentException} only) and the private data
 * of an rdma_cm event ({@link ConnectionEvents#copy}, which must copy any length byte). Nothing
 * else may escape (counted: 0), and whatever a decoder accepts encodes back to the same bytes.
 * The seed is printed and named in every failure; {@code -Dpanamaverbs.fuzzSeed=N} replays one.
 */
class PeerInputFuzzTest {
    private static final long SEED = Long.getLong("panamaverbs.fuzzSeed", System.nanoTime());
    private static final int RANDOM_MESSAGES = 20_000;
    /** Values every field is set to: 0, 1, the signed and unsigned edges, all ones. */
    private static final long[] EDGES = {0, 1, 2, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x1_0000,
        0xFF_FFFE, 0xFF_FFFF, 0x100_0000, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFFL, 0x1_0000_0000L,
        Long.MAX_VALUE, Long.MIN_VALUE, -1L, -2L};

    private static final EndpointInfo FULL = new EndpointInfo(0x000102, 0xABCDEF, 7, Gid.parse("fe80::1"), Mtu.MTU_1024,
            0x1111_1111, Optional.of(new RemoteRegion(0x7f00_1234_5000L, 0x1122_3344, 65536)));
    private static final EndpointInfo BARE = new EndpointInfo(0x11, 0x22, 0, null, Mtu.MTU_4096, 0, Optional.empty());
    /** The endpoint message's fields: offset and size, big-endian. */
    private static final int[][] ENDPOINT_FIELDS = {{0, 4}, {4, 2}, {6, 2}, {8, 4}, {12, 4}, {16, 2}, {18, 1}, {19, 1},
        {20, 4}, {24, 8}, {32, 8}, {40, 8}, {48, 4}, {52, 4}, {56, 8}};
    /** The window descriptor's fields: offset and size, little-endian. */
    private static final int[][] DESCRIPTOR_FIELDS = {{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 4}, {8, 8}, {16, 8}};

    /** One decoder under test: its documented exception, and how an accepted message encodes again. */
    private interface Decoder {
        /** Decodes {@code message} and returns its encoding again (a decoder accepts canonical messages only). */
        byte[] roundTrip(byte[] message) throws Exception;
    }

    private static final class Tally {
        final String what;
        final Class<? extends Exception> documented;
        int accepted;
        int refused;
        final List<String> escapes = new ArrayList<>();

        Tally(String what, Class<? extends Exception> documented) {
            this.what = what;
            this.documented = documented;
        }

        /** Decodes {@code message}: accepted (and re-encoded identically), refused with the documented type, or an escape. */
        boolean feed(Decoder decoder, byte[] message) {
            try {
                byte[] again = decoder.roundTrip(message);
                if (!Arrays.equals(message, again)) {
                    escapes.add("accepted but encodes differently: " + HexFormat.of().formatHex(message) + " -> "
                            + HexFormat.of().formatHex(again));
                    return false;
                }
                accepted++;
                return true;
            } catch (Throwable t) {
                if (documented.isInstance(t)) {
                    refused++;
                } else {
                    escapes.add(t + " for " + HexFormat.of().formatHex(message));
                }
                return false;
            }
        }

        void assertNoEscapes() {
            System.out.println("# PeerInputFuzzTest " + what + ": seed " + SEED + ", accepted " + accepted + ", refused "
                    + refused + ", escaped " + escapes.size());
            assertEquals(0, escapes.size(), what + ": " + escapes.size() + " messages escaped " + documented.getSimpleName()
                    + " (seed " + SEED + ", -Dpanamaverbs.fuzzSeed=" + SEED + " replays): "
                    + escapes.subList(0, Math.min(5, escapes.size())));
        }
    }

    private static final Decoder ENDPOINT = message -> EndpointExchange.encode(EndpointExchange.decode(message));
    private static final Decoder DESCRIPTOR = message -> WindowDescriptor.fromBytes(message).toBytes();

    // ---- the endpoint exchange's message ----

    @Test
    void endpointMessageFieldsAtTheirBoundaries() {
        Tally tally = new Tally("endpoint fields", EndpointExchangeException.class);
        for (EndpointInfo base : List.of(FULL, BARE)) {
            byte[] valid = EndpointExchange.encode(base);
            for (int[] field : ENDPOINT_FIELDS) {
                for (long edge : EDGES) {
                    tally.feed(ENDPOINT, withField(valid, field[0], field[1], edge, ByteOrder.BIG_ENDIAN));
                }
            }
        }
        tally.assertNoEscapes();
    }

    @Test
    void queuePairNumberAndPsnAreUnsigned24BitFields() throws Exception {
        byte[] valid = EndpointExchange.encode(BARE);
        for (int offset : new int[] {8, 12}) {
            for (long wide : new long[] {0x100_0000, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFFL}) {
                byte[] message = withField(valid, offset, 4, wide, ByteOrder.BIG_ENDIAN);
                EndpointExchangeException e = assertThrows(EndpointExchangeException.class,
                        () -> EndpointExchange.decode(message), Long.toHexString(wide) + " at " + offset);
                assertEquals(EndpointExchangeException.Reason.GARBAGE, e.reason(), e.getMessage());
            }
            EndpointInfo widest = EndpointExchange.decode(withField(valid, offset, 4, 0xFF_FFFF, ByteOrder.BIG_ENDIAN));
            assertEquals(0xFF_FFFF, offset == 8 ? widest.qpn() : widest.psn());
        }
        for (int mtu : new int[] {0, 6, 0x7F, 0x80, 0xFF}) {
            byte[] message = withField(valid, 18, 1, mtu, ByteOrder.BIG_ENDIAN);
            assertEquals(EndpointExchangeException.Reason.GARBAGE,
                    assertThrows(EndpointExchangeException.class, () -> EndpointExchange.decode(message)).reason());
        }
        byte[] negativeLength = withField(EndpointExchange.encode(FULL), 56, 8, Long.MIN_VALUE, ByteOrder.BIG_ENDIAN);
        assertEquals(EndpointExchangeException.Reason.GARBAGE,
                assertThrows(EndpointExchangeException.class, () -> EndpointExchange.decode(negativeLength)).reason());
    }

    @Test
    void endpointMessagesTruncatedAndOverLong() {
        Tally tally = new Tally("endpoint lengths", EndpointExchangeException.class);
        for (EndpointInfo base : List.of(FULL, BARE)) {
            byte[] valid = EndpointExchange.encode(base);
            for (int length = 0; length <= 2 * EndpointExchange.MESSAGE_SIZE + 1; length++) {
                boolean accepted = tally.feed(ENDPOINT, Arrays.copyOf(valid, length));
                assertEquals(length == EndpointExchange.MESSAGE_SIZE, accepted, "length " + length);
            }
        }
        tally.assertNoEscapes();
    }

    @Test
    void seededRandomEndpointMessages() {
        Random random = new Random(SEED);
        Tally tally = new Tally("endpoint random", EndpointExchangeException.class);
        byte[][] valid = {EndpointExchange.encode(FULL), EndpointExchange.encode(BARE)};
        for (int i = 0; i < RANDOM_MESSAGES; i++) {
            tally.feed(ENDPOINT, randomMessage(random, valid[i & 1], 8, ByteOrder.BIG_ENDIAN));
        }
        for (int i = 0; i < RANDOM_MESSAGES / 10; i++) { // valid random endpoints round-trip
            EndpointInfo info = randomEndpoint(random);
            if (!tally.feed(ENDPOINT, EndpointExchange.encode(info))) {
                throw new AssertionError("a valid endpoint " + info + " did not round-trip (seed " + SEED + ")");
            }
        }
        tally.assertNoEscapes();
    }

    // ---- the one-sided window descriptor ----

    @Test
    void windowDescriptorFieldsAtTheirBoundaries() {
        Tally tally = new Tally("descriptor fields", IllegalArgumentException.class);
        byte[] valid = new WindowDescriptor(0x1122334455667788L, 0x10000, 0xA1B2C3D4).toBytes();
        for (int[] field : DESCRIPTOR_FIELDS) {
            for (long edge : EDGES) {
                tally.feed(DESCRIPTOR, withField(valid, field[0], field[1], edge, ByteOrder.LITTLE_ENDIAN));
            }
        }
        for (int length = 0; length <= 2 * WindowDescriptor.BYTES + 1; length++) {
            assertEquals(length == WindowDescriptor.BYTES, tally.feed(DESCRIPTOR, Arrays.copyOf(valid, length)),
                    "length " + length);
        }
        tally.assertNoEscapes();
    }

    @Test
    void seededRandomWindowDescriptors() {
        Random random = new Random(SEED);
        Tally tally = new Tally("descriptor random", IllegalArgumentException.class);
        byte[] valid = new WindowDescriptor(0x1000, 4096, 0x1234).toBytes();
        for (int i = 0; i < RANDOM_MESSAGES; i++) {
            tally.feed(DESCRIPTOR, randomMessage(random, valid, 4, ByteOrder.LITTLE_ENDIAN));
        }
        for (int i = 0; i < RANDOM_MESSAGES / 10; i++) {
            WindowDescriptor descriptor = new WindowDescriptor(random.nextLong(), random.nextLong() & Long.MAX_VALUE,
                    random.nextInt());
            if (!tally.feed(DESCRIPTOR, descriptor.toBytes())) {
                throw new AssertionError("a valid descriptor " + descriptor + " did not round-trip (seed " + SEED + ")");
            }
        }
        tally.assertNoEscapes();
        // readFrom documents IndexOutOfBoundsException for too few bytes, IllegalArgumentException otherwise.
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(WindowDescriptor.BYTES);
            for (long offset : new long[] {-1, 1, WindowDescriptor.BYTES, Long.MAX_VALUE, Long.MIN_VALUE}) {
                assertThrows(IndexOutOfBoundsException.class, () -> WindowDescriptor.readFrom(segment, offset));
            }
        }
    }

    // ---- rdma_cm private data ----

    /**
     * {@code private_data_len} is a {@code uint8_t}: every value from 0 to 255, with a pointer to
     * 255 readable bytes, copies exactly that many bytes (none for a NULL pointer), whatever
     * the event type, status and peer numbers around it.
     */
    @Test
    void connectionEventCopiesAnyPrivateDataLength() {
        Random random = new Random(SEED);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(255);
            for (int i = 0; i < 255; i++) {
                data.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 3));
            }
            MemorySegment event = arena.allocate(rdma_cm_event.LAYOUT);
            for (int length = 0; length <= 255; length++) {
                for (int variant = 0; variant < 4; variant++) {
                    event.fill((byte) 0);
                    int rawType = variant == 0 ? length : (int) EDGES[random.nextInt(EDGES.length)];
                    int status = (int) EDGES[random.nextInt(EDGES.length)];
                    rdma_cm_event.event(event, rawType);
                    rdma_cm_event.status(event, status);
                    MemorySegment param = rdma_cm_event.param(event);
                    rdma_conn_param.private_data(param, variant == 3 ? MemorySegment.NULL : data);
                    rdma_conn_param.private_data_len(param, (byte) length);
                    rdma_conn_param.qp_num(param, random.nextInt());
                    rdma_conn_param.responder_resources(param, (byte) random.nextInt());
                    rdma_conn_param.initiator_depth(param, (byte) random.nextInt());
                    ConnectionEvent copy = ConnectionEvents.copy(event);
                    byte[] expected = variant == 3 ? new byte[0] : data.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
                    assertArrayEquals(expected, copy.privateData(), "length " + length + " (seed " + SEED + ")");
                    assertEquals(rawType, copy.rawType());
                    assertEquals(status, copy.status());
                    copy.statusDescription(); // describes any status without throwing
                    copy.toString();
                }
            }
        }
    }

    // ---- helpers ----

    /** {@code valid} with the {@code size}-byte field at {@code offset} set to {@code value} (its low bytes). */
    private static byte[] withField(byte[] valid, int offset, int size, long value, ByteOrder order) {
        byte[] message = valid.clone();
        ByteBuffer buffer = ByteBuffer.wrap(message).order(order);
        switch (size) {
            case 1 -> buffer.put(offset, (byte) value);
            case 2 -> buffer.putShort(offset, (short) value);
            case 4 -> buffer.putInt(offset, (int) value);
            case 8 -> buffer.putLong(offset, value);
            default -> throw new IllegalArgumentException("size " + size);
        }
        return message;
    }

    /**
     * One random message: pure noise of a random length, or {@code valid} with a few random bytes
     * or one field set to an edge, or with its header kept and the rest noise.
     */
    private static byte[] randomMessage(Random random, byte[] valid, int headerBytes, ByteOrder order) {
        switch (random.nextInt(4)) {
            case 0 -> {
                byte[] noise = new byte[random.nextInt(2 * valid.length + 2)];
                random.nextBytes(noise);
                return noise;
            }
            case 1 -> {
                byte[] message = valid.clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    message[random.nextInt(message.length)] = (byte) random.nextInt();
                }
                return message;
            }
            case 2 -> {
                int size = new int[] {1, 2, 4, 8}[random.nextInt(4)];
                int offset = random.nextInt(valid.length - size + 1);
                return withField(valid, offset, size, EDGES[random.nextInt(EDGES.length)], order);
            }
            default -> {
                byte[] message = valid.clone();
                byte[] noise = new byte[valid.length - headerBytes];
                random.nextBytes(noise);
                System.arraycopy(noise, 0, message, headerBytes, noise.length);
                return message;
            }
        }
    }

    private static EndpointInfo randomEndpoint(Random random) {
        byte[] gid = new byte[Gid.SIZE];
        random.nextBytes(gid);
        Mtu[] mtus = Mtu.values();
        return new EndpointInfo(random.nextInt(0x100_0000), random.nextInt(0x100_0000), random.nextInt(0x1_0000),
                random.nextBoolean() ? Gid.of(gid) : null, mtus[random.nextInt(mtus.length)], random.nextInt(),
                random.nextBoolean() ? Optional.of(new RemoteRegion(random.nextLong(), random.nextInt(),
                        random.nextLong() & Long.MAX_VALUE)) : Optional.empty());
    }
}
