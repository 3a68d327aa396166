package dev.plantstore.http;

import java.time.Duration;
import java.util.Objects;

/**
 * What the standalone server, or an application mounting the API with
 * {@link PlantStoreApi#mount(io.javalin.config.JavalinConfig, ClientLimits)}, allows a client connection:
 * {@code idleTimeout} (a silent connection is closed; a body cut off so gets 408), {@code maxConnections} (beyond it
 * new ones wait in the accept queue), {@code minBodyBytesPerSecond} (after {@value BodyBeforeHandler#GRACE_SECONDS}
 * s a body slower than this gets 408; 0 turns it off) and {@code headerTimeout} (a request head not complete this
 * long after its first byte closes the connection). docs/operations.md lists every bound.
 *
 * <pre>{@code
 * PlantStoreServer.start(api, "0.0.0.0", 8080, ClientLimits.defaults().withMaxConnections(2_000));
 * }</pre>
 */
public record ClientLimits(Duration idleTimeout, int maxConnections, int minBodyBytesPerSecond,
                           Duration headerTimeout) {

    /** 30 s. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** 10,000: far more than a single instance serves at once, far fewer than the descriptors a process may open. */
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    /**
     * 256 bytes a second: a tenth of what a poor 2G link carries, so a real client gets through, while a body
     * trickled a byte every few seconds is cut off after the grace period.
     */
    public static final int DEFAULT_MIN_BODY_BYTES_PER_SECOND = 256;

    /** 10 s: a real client sends its request line and headers in one packet or a few. */
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);

    /** These limits, with the default {@code headerTimeout}. */
    public ClientLimits(Duration idleTimeout, int maxConnections, int minBodyBytesPerSecond) {
        this(idleTimeout, maxConnections, minBodyBytesPerSecond, DEFAULT_HEADER_TIMEOUT);
    }

    public ClientLimits {
        Objects.requireNonNull(idleTimeout, "null idleTimeout");
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be positive");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be positive");
        }
        Objects.requireNonNull(headerTimeout, "null headerTimeout");
        if (headerTimeout.isNegative() || headerTimeout.isZero()) {
            throw new IllegalArgumentException("headerTimeout must be positive");
        }
        if (minBodyBytesPerSecond < 0) {
            throw new IllegalArgumentException("minBodyBytesPerSecond must not be negative");
        }
    }

    /** The defaults above. */
    public static ClientLimits defaults() {
        return new ClientLimits(DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MIN_BODY_BYTES_PER_SECOND,
                DEFAULT_HEADER_TIMEOUT);
    }

    public ClientLimits withIdleTimeout(Duration idleTimeout) {
        return new ClientLimits(idleTimeout, maxConnections, minBodyBytesPerSecond, headerTimeout);
    }

    public ClientLimits withMaxConnections(int maxConnections) {
        return new ClientLimits(idleTimeout, maxConnections, minBodyBytesPerSecond, headerTimeout);
    }

    public ClientLimits withMinBodyBytesPerSecond(int minBodyBytesPerSecond) {
        return new ClientLimits(idleTimeout, maxConnections, minBodyBytesPerSecond, headerTimeout);
    }

    public ClientLimits withHeaderTimeout(Duration headerTimeout) {
        return new ClientLimits(idleTimeout, maxConnections, minBodyBytesPerSecond, headerTimeout);
    }
}
