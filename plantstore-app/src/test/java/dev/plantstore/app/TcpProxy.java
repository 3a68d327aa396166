package dev.plantstore.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP forwarder between the server and its database, so a test can make a real database vanish
 * ({@link #refuse()}: connections cut, new ones refused), hang ({@link #stall()}: connections cut, new ones accepted,
 * nothing forwarded), drop off the network ({@link #blackHole()}: every connection kept open and nothing forwarded
 * either way, as when packets are lost, not refused) and come back ({@link #forward()}), without touching the database
 * itself. What a black hole held back is delivered when forwarding resumes, as TCP would retransmit it.
 */
final class TcpProxy implements AutoCloseable {

    private enum Mode { FORWARD, STALL, REFUSE, BLACK_HOLE }

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile Mode mode = Mode.FORWARD;
    private volatile ServerSocket listener;

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        this.port = listener.getLocalPort();
        startAccepting(listener);
    }

    int port() {
        return port;
    }

    synchronized void forward() throws IOException {
        mode = Mode.FORWARD;
        notifyAll();
        if (listener == null) {
            var socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
            listener = socket;
            startAccepting(socket);
        }
    }

    synchronized void blackHole() {
        mode = Mode.BLACK_HOLE;
    }

    /** Holds a pump while the network is a black hole. */
    private synchronized void awaitForwarding() throws InterruptedException {
        while (mode == Mode.BLACK_HOLE) {
            wait();
        }
    }

    synchronized void stall() {
        mode = Mode.STALL;
        cutAll();
    }

    synchronized void refuse() throws IOException {
        mode = Mode.REFUSE;
        if (listener != null) {
            listener.close();
            listener = null;
        }
        cutAll();
    }

    private void cutAll() {
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    private void startAccepting(ServerSocket socket) {
        Thread acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    sockets.add(client);
                    if (mode == Mode.FORWARD || mode == Mode.BLACK_HOLE) {
                        Socket server = new Socket(targetHost, targetPort);
                        sockets.add(server);
                        pump(client, server);
                        pump(server, client);
                    }
                } catch (IOException e) {
                    // The listener was closed by refuse() or close(), or one connection failed; either way go on.
                }
            }
        }, "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    awaitForwarding();
                    out.write(buffer, 0, read);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // Either side closed: close the other so the driver notices at once.
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public synchronized void close() throws IOException {
        mode = Mode.REFUSE;
        notifyAll();
        if (listener != null) {
            listener.close();
        }
        cutAll();
    }
}
