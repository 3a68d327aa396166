package dev.plantstore.app;

import dev.plantstore.core.threads.DaemonThreads;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A DNS server over UDP on its own loopback address, port 53, for a jar started in a mount namespace whose
 * {@code /etc/resolv.conf} names it alone ({@link #resolvConf}): the jar's name lookups reach a real name server, one
 * that never answers or answers late. Every name is {@code 127.0.0.1} (IPv4 only); it needs root, for the port.
 */
final class NameServer implements AutoCloseable {

    /** Not 127.0.0.1, where a resolver of the machine's own may listen on port 53. */
    static final String ADDRESS = "127.0.0.77";
    private static final short ANSWER_NO_ERROR = (short) 0x8180;
    private static final int TYPE_A = 1;

    private final DatagramSocket socket;
    private final Optional<Duration> answerAfter;
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService answers =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("name server's answers"));

    private NameServer(Optional<Duration> answerAfter) throws SocketException {
        this.socket = new DatagramSocket(new InetSocketAddress(ADDRESS, 53));
        this.answerAfter = answerAfter;
        DaemonThreads.named("name server").newThread(this::listen).start();
    }

    /** One that takes every question and answers none, as a name server that hangs. */
    static NameServer silent() throws SocketException {
        return new NameServer(Optional.empty());
    }

    /** One that answers each question {@code after} it came. */
    static NameServer answeringAfter(Duration after) throws SocketException {
        return new NameServer(Optional.of(after));
    }

    /** A resolver configuration, in {@code dir}, that asks this server alone, once, waiting for it up to 30 s. */
    Path resolvConf(Path dir) throws IOException {
        return Files.writeString(dir.resolve("resolv.conf"),
                "nameserver " + ADDRESS + "\noptions timeout:30 attempts:1\n");
    }

    /** The names asked for so far, one entry a question. */
    List<String> asked() {
        return asked;
    }

    private void listen() {
        byte[] buffer = new byte[512];
        while (!socket.isClosed()) {
            var packet = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(packet);
                byte[] query = Arrays.copyOf(packet.getData(), packet.getLength());
                var client = packet.getSocketAddress();
                asked.add(questionName(query));
                answerAfter.ifPresent(after -> answers.schedule(() -> send(answer(query), client),
                        after.toMillis(), TimeUnit.MILLISECONDS));
            } catch (IOException | RuntimeException e) {
                // Closed, or a question this server does not read: the resolver asks again or gives up.
            }
        }
    }

    private void send(byte[] answer, SocketAddress client) {
        try {
            socket.send(new DatagramPacket(answer, answer.length, client));
        } catch (IOException e) {
            // Closed meanwhile.
        }
    }

    private static String questionName(byte[] query) {
        var name = new StringBuilder();
        int at = 12;
        while (query[at] != 0) {
            int length = query[at];
            name.append(name.isEmpty() ? "" : ".").append(new String(query, at + 1, length, StandardCharsets.US_ASCII));
            at += length + 1;
        }
        return name.toString();
    }

    /** The query's header and question, then for an A question one record: 127.0.0.1, for a minute. */
    private static byte[] answer(byte[] query) {
        int questionEnd = 12;
        while (query[questionEnd] != 0) {
            questionEnd += query[questionEnd] + 1;
        }
        questionEnd += 5;
        int type = ((query[questionEnd - 4] & 0xff) << 8) | (query[questionEnd - 3] & 0xff);
        boolean typeA = type == TYPE_A;
        var answer = ByteBuffer.allocate(questionEnd + 16);
        answer.put(query, 0, 2).putShort(ANSWER_NO_ERROR).putShort((short) 1).putShort((short) (typeA ? 1 : 0))
                .putShort((short) 0).putShort((short) 0).put(query, 12, questionEnd - 12);
        if (typeA) {
            answer.putShort((short) 0xc00c).putShort((short) TYPE_A).putShort((short) 1).putInt(60)
                    .putShort((short) 4).put(new byte[] {127, 0, 0, 1});
        }
        return Arrays.copyOf(answer.array(), answer.position());
    }

    @Override
    public void close() {
        answers.shutdownNow();
        socket.close();
    }
}
