package dev.panamaverbs.perftest.interop.resident;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The resident twin's wire format over its TCP connection, one job per connection. The test
 * sends the request: how the job's listener is seen ({@code PeerPairing.Listening}'s name), its
 * port, and the twin's arguments. The resident answers with frames: {@value #OUTPUT} (a length
 * and the bytes the twin printed, stdout and stderr in the order printed), {@value #LISTENING}
 * (the job's listener is up on the resident's host) and last {@value #EXIT} (the exit status).
 * The test may send {@value #KILL} (or close the connection) to end the job early.
 */
final class ResidentTwinFrames {
    static final byte OUTPUT = 'O';
    static final byte LISTENING = 'L';
    static final byte EXIT = 'X';
    static final byte KILL = 'K';
    /** The exit status of a job that was killed or whose twin threw past its own handler. */
    static final int KILLED = 137;

    private ResidentTwinFrames() {}

    /** A job's request. */
    record Request(String listening, int port, List<String> args) {
        Request {
            args = List.copyOf(args);
        }

        void write(DataOutputStream out) throws IOException {
            out.writeUTF(listening);
            out.writeInt(port);
            out.writeInt(args.size());
            for (String arg : args) {
                out.writeUTF(arg);
            }
            out.flush();
        }

        static Request read(DataInputStream in) throws IOException {
            String listening = in.readUTF();
            int port = in.readInt();
            int count = in.readInt();
            if (count < 0 || count > 1000) {
                throw new IOException("a request of " + count + " arguments");
            }
            List<String> args = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                args.add(in.readUTF());
            }
            return new Request(listening, port, args);
        }
    }

    /** The resident's side of one connection: frames written whole, from any of the job's threads. */
    static final class Sender {
        private final DataOutputStream out;

        Sender(OutputStream out) {
            this.out = new DataOutputStream(out);
        }

        synchronized void output(byte[] bytes, int offset, int length) throws IOException {
            out.writeByte(OUTPUT);
            out.writeInt(length);
            out.write(bytes, offset, length);
            out.flush();
        }

        synchronized void listening() throws IOException {
            out.writeByte(LISTENING);
            out.flush();
        }

        synchronized void exit(int status) throws IOException {
            out.writeByte(EXIT);
            out.writeInt(status);
            out.flush();
        }

        /** The twin's stdout and stderr: each write one frame, so the order printed is kept. */
        OutputStream printed() {
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] bytes, int offset, int length) throws IOException {
                    output(bytes, offset, length);
                }
            };
        }
    }
}
