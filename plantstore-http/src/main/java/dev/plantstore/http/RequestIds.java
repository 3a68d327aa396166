package dev.plantstore.http;

import io.javalin.http.Context;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.MDC;

/**
 * Gives every request an id: the client's {@code X-Request-Id} when it is sane (see {@link #acceptOrGenerate}), else
 * a new one. The id goes back on the response and into the SLF4J MDC under {@value LogFields#REQUEST_ID} while the
 * request is served, so every log line written for the request (a 500's detail) can carry it. A Jetty handler rather
 * than a Javalin before-handler, so that it wraps the whole exchange, error responses included; the access line,
 * written once this handler has returned, takes the id from the response's header.
 */
final class RequestIds extends Handler.Wrapper {

    static final String HEADER = "X-Request-Id";
    static final int MAX_LENGTH = 128;
    /** The characters besides ASCII letters and digits an id may hold. */
    static final String PUNCTUATION = "-._~:/+=";

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String id = acceptOrGenerate(request.getHeaders().get(HEADER));
        response.getHeaders().put(HEADER, id);
        MDC.put(LogFields.REQUEST_ID, id);
        try {
            return super.handle(request, response, callback);
        } finally {
            MDC.remove(LogFields.REQUEST_ID);
            MDC.remove(LogFields.PRINCIPAL);
        }
    }

    /**
     * The client's id when it is 1 to {@value #MAX_LENGTH} characters, each a letter or digit of ASCII or one of
     * {@value #PUNCTUATION}, else a generated one. That covers the ids proxies and tracers send (UUIDs, hex, base64,
     * {@code Root=1-...}), while a space, quote, bracket or control character, which could forge or split a log line
     * or the brackets the id is written in, never gets in.
     */
    static String acceptOrGenerate(String given) {
        return given != null && isSane(given) ? given : generate();
    }

    private static boolean isSane(String id) {
        if (id.isEmpty() || id.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean letterOrDigit = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
            if (!letterOrDigit && PUNCTUATION.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * 128 random bits as 32 hex digits. ThreadLocalRandom rather than {@code UUID.randomUUID()}: the id needs to be
     * unique, not unguessable, and SecureRandom would be one more lock every request takes.
     */
    static String generate() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] digits = new char[32];
        long high = random.nextLong();
        long low = random.nextLong();
        for (int i = 0; i < 16; i++) {
            digits[15 - i] = HEX[(int) (high >>> (4 * i)) & 0xf];
            digits[31 - i] = HEX[(int) (low >>> (4 * i)) & 0xf];
        }
        return new String(digits);
    }

    /**
     * The id of the request {@code ctx} serves, read back from its response rather than the MDC, which a logging
     * backend without MDC support leaves empty; a new one where no {@link RequestIds} handler runs.
     */
    static String of(Context ctx) {
        String id = ctx.res().getHeader(HEADER);
        return id != null ? id : generate();
    }
}
