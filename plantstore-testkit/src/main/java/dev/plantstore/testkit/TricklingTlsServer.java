package dev.plantstore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A receiver that answers its first TLS client with one byte of a handshake record every 200 ms, the way a slow
 * attacker would: the bytes keep the connection from ever being idle, so only a deadline of the client's own ends it.
 */
public final class TricklingTlsServer implements AutoCloseable {

    private final ServerSocket server;
    private final AtomicBoolean accepted = new AtomicBoolean();
    private final AtomicBoolean closedByClient = new AtomicBoolean();

    private TricklingTlsServer(ServerSocket server) {
        this.server = server;
    }

    /** Listening on the loopback address, on a port of the system's choosing. */
    public static TricklingTlsServer start() throws IOException {
        var trickling = new TricklingTlsServer(new ServerSocket(0, 8, InetAddress.getLoopbackAddress()));
        var thread = new Thread(trickling::trickle, "trickling receiver");
        thread.setDaemon(true);
        thread.start();
        return trickling;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** True once a client connected. */
    public boolean accepted() {
        return accepted.get();
    }

    /** True once the client closed the connection it was trickled on. */
    public boolean closedByClient() {
        return closedByClient.get();
    }

    private void trickle() {
        try (Socket socket = server.accept()) {
            accepted.set(true);
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
            // A reset by the client is its close too; a close of this server before any client ends the thread.
            closedByClient.set(accepted.get());
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
