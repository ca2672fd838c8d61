package example.fallback;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** The fallback: an echo over a loopback TCP connection. */
final class TcpTransport implements Transport {
    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public String roundTrip(String message) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread echo = new Thread(() -> {
                try (Socket peer = server.accept()) {
                    new DataOutputStream(peer.getOutputStream()).writeUTF(
                            new DataInputStream(peer.getInputStream()).readUTF());
                } catch (Exception e) {
                    e.printStackTrace();
                }
            });
            echo.start();
            try (Socket socket = new Socket(server.getInetAddress(), server.getLocalPort())) {
                new DataOutputStream(socket.getOutputStream()).writeUTF(message);
                String answer = new DataInputStream(socket.getInputStream()).readUTF();
                echo.join();
                return answer;
            }
        }
    }
}
