package dev.plantstore.http;

import dev.plantstore.testkit.Sockets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * HTTP/1.1 over a plain socket, for what a client library hides or cannot do: a request Jetty refuses to parse, a body
 * that never comes, an answer read before the body is sent.
 */
final class RawHttp {

    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(20);

    private RawHttp() {
    }

    /** Sends {@code request} as it is, ends the sending side, and reads the answer until the server closes. */
    static String exchange(int port, String request) {
        return exchange("127.0.0.1", port, request);
    }

    /**
     * As {@link #exchange(int, String)}, from the local address {@code from} ({@code 127.0.0.2}, say: any address of
     * 127.0.0.0/8 is this machine), to the server on 127.0.0.1.
     */
    static String exchange(String from, int port, String request) {
        try (var socket = new Socket()) {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            return Sockets.readUntilClosed(socket, ANSWER_TIMEOUT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends a request's line and headers, which declare a body, and reads the answer before sending any of the body:
     * what a client sees of a request the server refuses without reading its body (no token, over the limit). A
     * client still sending that body could have its connection reset before it read the answer.
     */
    static String answerBeforeBody(String origin, String head) {
        URI server = URI.create(origin);
        try (var socket = new Socket(server.getHost(), server.getPort())) {
            socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return Sockets.readUntilClosed(socket, ANSWER_TIMEOUT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The line and headers of a JSON create that declares {@code contentLength} bytes of body, with {@code headers}.
     */
    static String createHead(long contentLength, String... headers) {
        var head = new StringBuilder("POST /plants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        return head.append("Content-Length: ").append(contentLength).append("\r\n\r\n").toString();
    }
}
