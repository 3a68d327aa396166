package dev.plantstore.http;

import java.time.Duration;
import java.util.Objects;

/**
 * What the standalone server allows a client connection, against slow, stalled and too many clients:
 *
 * <ul>
 *   <li>{@code idleTimeout}: a connection on which nothing arrives this long is closed (a request body cut off
 *       this way gets 408 first);
 *   <li>{@code maxConnections}: at this many open connections the server stops accepting new ones; they wait in the
 *       operating system's accept queue until a connection closes, and a client whose connect times out first sees
 *       it fail;
 *   <li>{@code minBodyBytesPerSecond}: after the first {@value BodyBeforeHandler#GRACE_SECONDS} seconds of a
 *       request, its body must have averaged at least this rate since the request began, else 408 and the
 *       connection is closed; 0 turns the check off.
 * </ul>
 *
 * <pre>{@code
 * PlantStoreServer.start(api, "0.0.0.0", 8080, ClientLimits.defaults().withMaxConnections(2_000));
 * }</pre>
 */
public record ClientLimits(Duration idleTimeout, int maxConnections, int minBodyBytesPerSecond) {

    /** 30 s. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** 10,000: far more than a single instance serves at once, far fewer than the descriptors a process may open. */
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    /**
     * 256 bytes a second: a tenth of what a poor 2G link carries, so a real client gets through, while a body
     * trickled a byte every few seconds is cut off after the grace period.
     */
    public static final int DEFAULT_MIN_BODY_BYTES_PER_SECOND = 256;

    public ClientLimits {
        Objects.requireNonNull(idleTimeout, "null idleTimeout");
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be positive");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be positive");
        }
        if (minBodyBytesPerSecond < 0) {
            throw new IllegalArgumentException("minBodyBytesPerSecond must not be negative");
        }
    }

    /** The defaults above. */
    public static ClientLimits defaults() {
        return new ClientLimits(DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MIN_BODY_BYTES_PER_SECOND);
    }

    public ClientLimits withIdleTimeout(Duration idleTimeout) {
        return new ClientLimits(idleTimeout, maxConnections, minBodyBytesPerSecond);
    }

    public ClientLimits withMaxConnections(int maxConnections) {
        return new ClientLimits(idleTimeout, maxConnections, minBodyBytesPerSecond);
    }

    public ClientLimits withMinBodyBytesPerSecond(int minBodyBytesPerSecond) {
        return new ClientLimits(idleTimeout, maxConnections, minBodyBytesPerSecond);
    }
}
