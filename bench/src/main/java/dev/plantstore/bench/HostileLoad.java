package dev.plantstore.bench;

import dev.plantstore.testkit.PlantRequests;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The hostile load of bench/RESULTS.md against a running server: {@code stalled} connections that send a create's
 * headers and 11 of its 100 body bytes and then nothing, {@code trickling} ones that go on with one byte every 5 s,
 * all with a valid token, each reopened as soon as the server answers or closes it, as an attacker would. Meanwhile
 * one client sends fresh creates, deletes and {@code GET /health} one after another for {@code seconds}, and their
 * latencies are printed as min, median, p99 and max.
 *
 * <pre>java -cp bench.jar dev.plantstore.bench.HostileLoad PORT TOKEN [stalled trickling seconds]</pre>
 */
public final class HostileLoad {

    private static final Duration TRICKLE_EVERY = Duration.ofSeconds(5);
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

    private final int port;
    private final byte[] slowCreate;

    private HostileLoad(int port, String token) {
        this.port = port;
        this.slowCreate = ("POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":1234,")
                .getBytes(StandardCharsets.US_ASCII);
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String token = args[1];
        int stalled = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        int trickling = args.length > 3 ? Integer.parseInt(args[3]) : 1_000;
        int seconds = args.length > 4 ? Integer.parseInt(args[4]) : 30;
        new HostileLoad(port, token).run(stalled, trickling, seconds, token);
    }

    private Socket open() throws IOException {
        var socket = new Socket("127.0.0.1", port);
        socket.getOutputStream().write(slowCreate);
        socket.getOutputStream().flush();
        return socket;
    }

    /** Replaces every connection the server has answered or closed; tricklers also send their next byte. */
    private int refresh(Socket[] sockets, boolean trickle) {
        int reopened = 0;
        for (int i = 0; i < sockets.length; i++) {
            try {
                if (sockets[i].getInputStream().available() > 0) {
                    throw new IOException("answered");
                }
                if (trickle) {
                    sockets[i].getOutputStream().write(' ');
                    sockets[i].getOutputStream().flush();
                }
            } catch (IOException answeredOrClosed) {
                try {
                    sockets[i].close();
                    sockets[i] = open();
                    reopened++;
                } catch (IOException e) {
                    throw new IllegalStateException("cannot reopen a hostile connection", e);
                }
            }
        }
        return reopened;
    }

    private void run(int stalledCount, int tricklingCount, int seconds, String token) throws Exception {
        Socket[] stalled = new Socket[stalledCount];
        Socket[] trickling = new Socket[tricklingCount];
        for (int i = 0; i < stalledCount; i++) {
            stalled[i] = open();
        }
        for (int i = 0; i < tricklingCount; i++) {
            trickling[i] = open();
        }
        int[] reopened = new int[2];
        var hostile = new Thread(() -> {
            long nextTrickle = System.nanoTime() + TRICKLE_EVERY.toNanos();
            while (!Thread.currentThread().isInterrupted()) {
                boolean trickle = System.nanoTime() >= nextTrickle;
                if (trickle) {
                    nextTrickle += TRICKLE_EVERY.toNanos();
                }
                reopened[0] += refresh(stalled, false);
                reopened[1] += refresh(trickling, trickle);
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "hostile");
        hostile.setDaemon(true);
        hostile.start();

        HttpClient client = HttpClient.newBuilder().connectTimeout(ANSWER_TIMEOUT).build();
        URI base = URI.create("http://127.0.0.1:" + port);
        List<Long> creates = new ArrayList<>();
        List<Long> deletes = new ArrayList<>();
        List<Long> healths = new ArrayList<>();
        int failures = 0;
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        long id = System.nanoTime();
        while (System.nanoTime() < end) {
            id++;
            failures += time(client, PlantRequests.create(base.resolve("/plants"), token,
                    "{\"id\":" + id + ",\"name\":\"Fern\"}"), 200, creates);
            failures += time(client, PlantRequests.delete(base.resolve("/plants/" + id), token), 204, deletes);
            failures += time(client, HttpRequest.newBuilder(base.resolve("/health")), 200, healths);
        }
        hostile.interrupt();
        System.out.printf("hostile: %d stalled, %d trickling (one byte every %d s); reopened after the server "
                        + "answered or closed them: %d stalled, %d trickling; failed or late requests: %d%n",
                stalledCount, tricklingCount, TRICKLE_EVERY.toSeconds(), reopened[0], reopened[1], failures);
        print("create", creates);
        print("delete", deletes);
        print("health", healths);
        for (Socket socket : stalled) {
            socket.close();
        }
        for (Socket socket : trickling) {
            socket.close();
        }
    }

    /** One request; its latency, or the time-out when it got no answer, goes into {@code into}. 1 if it failed. */
    private static int time(HttpClient client, HttpRequest.Builder request, int expected, List<Long> into) {
        long started = System.nanoTime();
        try {
            int status = client.send(request.timeout(ANSWER_TIMEOUT).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
            into.add(System.nanoTime() - started);
            return status == expected ? 0 : 1;
        } catch (IOException | InterruptedException e) {
            into.add(System.nanoTime() - started);
            return 1;
        }
    }

    private static void print(String name, List<Long> nanos) {
        long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        if (sorted.length == 0) {
            System.out.printf("%s: no requests%n", name);
            return;
        }
        System.out.printf("%s: n=%d min=%.1f ms median=%.1f ms p99=%.1f ms max=%.1f ms%n", name, sorted.length,
                sorted[0] / 1e6, sorted[sorted.length / 2] / 1e6,
                sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] / 1e6,
                sorted[sorted.length - 1] / 1e6);
    }
}
