package dev.panamaverbs.benchmarks.messaging;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A {@link Link} over a blocking NIO {@link SocketChannel} (TCP_NODELAY set by the caller): each
 * message is {@code size} bytes written whole from a direct buffer and read whole into another
 * (the size is fixed per run, so no length prefix).
 */
final class TcpLink implements Link {
    private final SocketChannel socket;
    private final int size;
    private final ByteBuffer out;
    private final ByteBuffer in;
    private final MemorySegment outView;
    private final MemorySegment inView;

    TcpLink(SocketChannel socket, int size) {
        this.socket = socket;
        this.size = size;
        this.out = ByteBuffer.allocateDirect(size);
        this.in = ByteBuffer.allocateDirect(size);
        this.outView = MemorySegment.ofBuffer(out);
        this.inView = MemorySegment.ofBuffer(in);
    }

    @Override
    public void send(long word) throws IOException {
        Stamp.write(outView, size, word);
        out.clear();
        while (out.hasRemaining()) {
            socket.write(out);
        }
    }

    @Override
    public long receive() throws IOException {
        in.clear();
        while (in.hasRemaining()) {
            if (socket.read(in) < 0) {
                throw new EOFException("the TCP peer closed after " + in.position() + " of " + size + " bytes");
            }
        }
        return Stamp.check(inView, in.position(), size);
    }

    @Override
    public void flush() {
        // a blocking write returns once the kernel has the bytes: nothing of ours is in flight
    }

    @Override
    public void abort() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing only to unblock a reader
        }
    }
}
