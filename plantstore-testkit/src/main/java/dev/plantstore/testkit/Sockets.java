package dev.plantstore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** What a test that speaks HTTP over a plain socket needs to read the server's side. */
public final class Sockets {

    private Sockets() {
    }

    /** A port nothing listens on now, for a server a test starts later at a known address. */
    public static int freePort() throws IOException {
        try (var probe = new java.net.ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    /**
     * Everything the server sends until it closes the connection, as ISO-8859-1 text (one char a byte); a reset after
     * the answer counts as a close. Fails if the connection is still open after {@code bound}, all reads together.
     */
    public static String readUntilClosed(Socket socket, Duration bound) throws IOException {
        long deadline = System.nanoTime() + bound.toNanos();
        InputStream in = socket.getInputStream();
        var text = new StringBuilder();
        byte[] buffer = new byte[8192];
        try {
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new SocketTimeoutException();
                }
                socket.setSoTimeout((int) left);
                int read = in.read(buffer);
                if (read < 0) {
                    return text.toString();
                }
                text.append(new String(buffer, 0, read, StandardCharsets.ISO_8859_1));
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("connection still open after " + bound.toMillis() + " ms; got: " + text, e);
        } catch (IOException e) {
            return text.toString();
        }
    }
}
