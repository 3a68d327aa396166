package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A PostgreSQL URL is shown with every host the driver connects to and none of the credentials written into it: user
 * information before any of its hosts, password parameters.
 */
class StoreSpecTest {

    private static final String PASSWORD = "hunter2";

    static Stream<Arguments> urlsAndTheirShownForm() {
        return Stream.of(
                Arguments.of("jdbc:postgresql://127.0.0.1:5432,u:hunter2@127.0.0.1:5433/db",
                        "jdbc:postgresql://127.0.0.1:5432,127.0.0.1:5433/db"),
                Arguments.of("jdbc:postgresql://u:hunter2@db1:5432,db2:5433/plants",
                        "jdbc:postgresql://db1:5432,db2:5433/plants"),
                Arguments.of("jdbc:postgresql://a:hunter2@db1,db2,b:hunter2@db3:5434/plants?targetServerType=primary",
                        "jdbc:postgresql://db1,db2,db3:5434/plants"),
                Arguments.of("jdbc:postgresql://db1:5432,db2:5433/plants?user=app&password=hunter2&sslpassword=hunter2",
                        "jdbc:postgresql://db1:5432,db2:5433/plants"),
                Arguments.of("jdbc:postgresql://[::1]:5432,u:hunter2@[::1]:5433/plants",
                        "jdbc:postgresql://[::1]:5432,[::1]:5433/plants"),
                Arguments.of("jdbc:postgresql://db1,u:hun/ter2@db2/plants",
                        "jdbc:postgresql://db1,db2/plants"),
                Arguments.of("jdbc:postgresql://db1,u:hunter2@x@db2/plants",
                        "jdbc:postgresql://db1,db2/plants"),
                // A password with a comma splits into what the driver takes for two hosts, the first with a port
                // that is no number: the driver refuses such a URL, and it is shown without that part.
                Arguments.of("jdbc:postgresql://db1,u:hunter2,more@db2/plants",
                        "jdbc:postgresql://db1,***,db2/plants"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urlsAndTheirShownForm")
    void aUrlIsShownWithEveryHostAndWithoutItsPassword(String url, String shown) {
        var store = new StoreSpec.Postgres(url);

        assertEquals(shown, store.redacted());
        assertFalse(store.toString().contains(PASSWORD), store.toString());
    }

    /**
     * The driver takes {@code u:PASSWORD@host} for a host name, splitting the hosts at commas up to the first slash,
     * and its messages may quote such a host, or the URL.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdbc:postgresql://127.0.0.1:5432,u:hunter2@127.0.0.1:5433/db",
            "jdbc:postgresql://u:hunter2@db1:5432,db2:5433/plants",
            "jdbc:postgresql://a:hunter2@db1,db2,b:hunter2@db3:5434/plants?targetServerType=primary",
            "jdbc:postgresql://db1:5432,db2:5433/plants?user=app&password=hunter2&sslpassword=hunter2",
            "jdbc:postgresql://[::1]:5432,u:hunter2@[::1]:5433/plants"})
    void aMessageQuotingAnyHostOrTheUrlIsMaskedOfItsPassword(String url) {
        String hosts = url.substring("jdbc:postgresql://".length()).split("/", 2)[0];
        String message = "could not connect to " + String.join(" nor ", hosts.split(",")) + " (" + url + ")";

        String masked = new StoreSpec.Postgres(url).masked(message);

        assertFalse(masked.contains(PASSWORD), masked);
    }
}
