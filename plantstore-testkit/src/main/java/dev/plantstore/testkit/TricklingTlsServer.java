package dev.plantstore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A receiver that answers every TLS client with one byte of a handshake record every 200 ms, the way a slow attacker
 * would: the bytes keep a connection from ever being idle, so only a deadline of the client's own ends it.
 */
public final class TricklingTlsServer implements AutoCloseable {

    private final ServerSocket server;
    /** In the order they were accepted. */
    private final List<Trickled> connections = new CopyOnWriteArrayList<>();
    private volatile boolean closing;

    /** One client's connection, and whether that client closed it. */
    private record Trickled(Socket socket, AtomicBoolean closedByClient) {
    }

    private TricklingTlsServer(ServerSocket server) {
        this.server = server;
    }

    /** Listening on the loopback address, on a port of the system's choosing. */
    public static TricklingTlsServer start() throws IOException {
        var trickling = new TricklingTlsServer(new ServerSocket(0, 8, InetAddress.getLoopbackAddress()));
        daemon(trickling::acceptEveryClient, "trickling receiver");
        return trickling;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The connections clients opened so far. */
    public int accepted() {
        return connections.size();
    }

    /** True once the first {@code count} connections accepted were each closed by their client. */
    public boolean closedByClient(int count) {
        if (connections.size() < count) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            if (!connections.get(i).closedByClient().get()) {
                return false;
            }
        }
        return true;
    }

    private void acceptEveryClient() {
        while (!closing) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                // Closing the server ends the loop; so does any other failure to accept, which would repeat.
                return;
            }
            var connection = new Trickled(socket, new AtomicBoolean());
            connections.add(connection);
            daemon(() -> trickle(connection), "trickling receiver " + connections.size());
        }
    }

    private void trickle(Trickled connection) {
        try (Socket socket = connection.socket()) {
            socket.setSoTimeout(200);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] record = {0x16, 0x03, 0x03, 0x40, 0x00};
            for (int i = 0; !closing; i++) {
                out.write(record[i % record.length]);
                out.flush();
                try {
                    if (in.read(new byte[4096]) < 0) {
                        connection.closedByClient().set(true);
                        return;
                    }
                } catch (SocketTimeoutException e) {
                    // Nothing from the client within this byte's pause: go on trickling.
                }
            }
        } catch (IOException e) {
            // A reset by the client is its close too; closing this server closes its sockets as well.
            connection.closedByClient().set(!closing);
        }
    }

    private static void daemon(Runnable work, String name) {
        var thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops accepting and closes every connection, at once or, for one accepted meanwhile, within a byte's pause. */
    @Override
    public void close() throws IOException {
        closing = true;
        server.close();
        for (Trickled connection : connections) {
            connection.socket().close();
        }
    }
}
