package dev.panamaverbs.it.twohost;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;

/**
 * The two-host tests' control channel: one line-like UTF string per message over the TCP
 * connection that carried the endpoint exchange. The socket's read timeout bounds every wait.
 */
final class Control {
    private final DataInputStream in;
    private final DataOutputStream out;

    Control(Socket socket, int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    void send(String message) throws IOException {
        out.writeUTF(message);
        out.flush();
    }

    String receive() throws IOException {
        return in.readUTF();
    }

    /** Sends a request and returns the answer. */
    String ask(String request) throws IOException {
        send(request);
        return receive();
    }
}
