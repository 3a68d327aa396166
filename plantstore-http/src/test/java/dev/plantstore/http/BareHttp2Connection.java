package dev.plantstore.http;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLSocket;

/**
 * An HTTP/2 connection over TLS written frame by frame, for what no HTTP/2 library lets a client do: it sends frames
 * only when told to, and it answers nothing the server sends, GOAWAY included, the way a client that keeps an idle
 * connection in its pool and reads it late behaves.
 */
final class BareHttp2Connection implements AutoCloseable {

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(US_ASCII);
    private static final int DATA = 0x0, HEADERS = 0x1, SETTINGS = 0x4, PING = 0x6;
    private static final int END_STREAM = 0x1, END_HEADERS = 0x4, ACK = 0x1;

    private final SSLSocket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final String authority;

    private BareHttp2Connection(SSLSocket socket, String authority) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
        this.authority = authority;
    }

    /** Connects to {@code server} (https, trusted by {@link TestTransport#clientTrust()}) and sends the preface. */
    static BareHttp2Connection open(URI server) throws IOException {
        var socket = (SSLSocket) TestTransport.clientTrust().getSocketFactory()
                .createSocket(server.getHost(), server.getPort());
        var parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        if (!"h2".equals(socket.getApplicationProtocol())) {
            socket.close();
            throw new IOException("the server did not choose h2 but " + socket.getApplicationProtocol());
        }
        var connection = new BareHttp2Connection(socket, server.getHost() + ":" + server.getPort());
        connection.out.write(PREFACE);
        connection.frame(SETTINGS, 0, 0, new byte[0]);
        return connection;
    }

    /** Sends {@code GET path} on stream 1 and reads until its answer has ended. */
    void getAndReadAnswer(String path) throws IOException {
        // HPACK without Huffman: :method GET, :scheme https (static table), :path and :authority as literals.
        var block = ByteBuffer.allocate(256);
        block.put((byte) 0x82).put((byte) 0x87);
        literalWithIndexedName(block, 4, path);
        literalWithIndexedName(block, 1, authority);
        byte[] head = new byte[block.position()];
        block.flip().get(head);
        frame(HEADERS, END_STREAM | END_HEADERS, 1, head);
        while (true) {
            Frame frame = read();
            if (frame.type == SETTINGS && (frame.flags & ACK) == 0) {
                frame(SETTINGS, ACK, 0, new byte[0]);
            }
            if (frame.stream == 1 && (frame.type == HEADERS || frame.type == DATA) && (frame.flags & END_STREAM) != 0) {
                return;
            }
        }
    }

    /** Sends a PING and reads until its answer: bytes the server reads after its last answer, carrying no request. */
    void ping() throws IOException {
        frame(PING, 0, 0, new byte[8]);
        while (true) {
            Frame frame = read();
            if (frame.type == PING && (frame.flags & ACK) != 0) {
                return;
            }
        }
    }

    private static void literalWithIndexedName(ByteBuffer block, int nameIndex, String value) {
        byte[] bytes = value.getBytes(US_ASCII);
        block.put((byte) (0x40 | nameIndex)).put((byte) bytes.length).put(bytes);
    }

    private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        var header = ByteBuffer.allocate(9)
                .put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                .put((byte) type).put((byte) flags).putInt(stream);
        out.write(header.array());
        out.write(payload);
        out.flush();
    }

    private record Frame(int type, int flags, int stream) {}

    private Frame read() throws IOException {
        int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int stream = in.readInt() & 0x7fffffff;
        in.skipNBytes(length);
        return new Frame(type, flags, stream);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
