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
    /** One flag per connection, in the order they were accepted: set once the client closed it. */
    private final List<AtomicBoolean> closedByClient = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closing;

    private TricklingTlsServer(ServerSocket server) {
        this.server = server;
    }

    /** Listening on the loopback address, on a port of the system's choosing. */
    public static TricklingTlsServer start() throws IOException {
        var trickling = new TricklingTlsServer(new ServerSocket(0, 8, InetAddress.getLoopbackAddress()));
        daemon(trickling::accept, "trickling receiver");
        return trickling;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The connections clients opened so far. */
    public int accepted() {
        return closedByClient.size();
    }

    /** True once the first {@code connections} accepted were each closed by their client. */
    public boolean closedByClient(int connections) {
        return closedByClient.size() >= connections
                && closedByClient.subList(0, connections).stream().allMatch(AtomicBoolean::get);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                var closed = new AtomicBoolean();
                closedByClient.add(closed);
                daemon(() -> trickle(socket, closed), "trickling receiver " + closedByClient.size());
            } catch (IOException e) {
                // Closing the server ends the loop.
            }
        }
    }

    private void trickle(Socket socket, AtomicBoolean closedByClient) {
        try (socket) {
            socket.setSoTimeout(200);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] record = {0x16, 0x03, 0x03, 0x40, 0x00};
            for (int i = 0; ; i++) {
                out.write(record[i % record.length]);
                out.flush();
                try {
                    if (in.read(new byte[4096]) < 0) {
                        closedByClient.set(true);
                        return;
                    }
                } catch (SocketTimeoutException e) {
                    // Nothing from the client within this byte's pause: go on trickling.
                }
            }
        } catch (IOException e) {
            // A reset by the client is its close too; closing this server closes its sockets as well.
            closedByClient.set(!closing);
        }
    }

    private static void daemon(Runnable work, String name) {
        var thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        closing = true;
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
