package dev.plantstore.app;

import static dev.plantstore.app.Options.KAFKA_BOOTSTRAP_SERVERS;
import static dev.plantstore.app.Options.KAFKA_TOPIC;
import static dev.plantstore.app.Options.STORE;
import static dev.plantstore.app.Options.WEBHOOK_SIGNING_KEY_FILE;
import static dev.plantstore.app.Options.WEBHOOK_URL;

import com.zaxxer.hikari.HikariDataSource;
import dev.plantstore.core.UndeliverableEvents;
import dev.plantstore.core.Webhooks;
import dev.plantstore.kafka.KafkaSink;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteOpenMode;

/**
 * {@code java -jar plantstore.jar webhooks undeliverable|redeliver [OPTIONS]}: an operator's view of the events given
 * up on, and their redelivery, beside running servers and without SQL, and {@code webhooks enable URL} for a receiver
 * turned off after a {@code 410 Gone}; {@code webhooks signing-key FILE} and
 * {@code webhooks public-key}, the Ed25519 signing key's making and its public key for receivers. It takes the
 * server's own options and environment, so it opens the database the server does; with {@code --webhook-url} it
 * keeps to those receivers, with {@code --kafka-bootstrap-servers} to the Kafka sink's topic.
 * Whoever may open that database (the SQLite file's permissions, the PostgreSQL role) may run it; it opens no port.
 */
final class WebhooksCommand {

    static final String NAME = "webhooks";
    static final String USAGE = """
        Usage: java -jar plantstore.jar webhooks undeliverable [OPTIONS]   list the events given up on
               java -jar plantstore.jar webhooks redeliver [OPTIONS]       send them again, with a fresh retry period
               java -jar plantstore.jar webhooks enable URL [OPTIONS]      turn a receiver that answered 410 Gone on
                                                                           again
               java -jar plantstore.jar webhooks signing-key FILE          write a new Ed25519 signing key to FILE
                                                                           (readable by its owner only), print its
                                                                           public key
               java -jar plantstore.jar webhooks public-key [OPTIONS]      print the public key of each signing key
        OPTIONS are the server's: --store (or PLANTSTORE_STORE) names the database, --webhook-url keeps to those
        receivers, --kafka-bootstrap-servers and --kafka-topic to that topic; PostgreSQL credentials come from
        PLANTSTORE_DB_USER and PLANTSTORE_DB_PASSWORD; the signing keys from --webhook-signing-key-file or
        PLANTSTORE_WEBHOOK_SIGNING_KEY.
        """;
    private static final int LISTED_AT_MOST = 1_000;

    private WebhooksCommand() {
    }

    /**
     * Runs the command; returns the exit status: 0 done, 1 the database failed, 2 a usage error (a SQLite store that
     * does not exist among them). A failure is one line on {@code err}, credentials masked as the server masks them.
     */
    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (!args.isEmpty() && args.get(0).equals("signing-key")) {
            return newSigningKey(args.subList(1, args.size()), out, err);
        }
        if (args.isEmpty() || !List.of("undeliverable", "redeliver", "enable", "public-key").contains(args.get(0))) {
            err.print(USAGE);
            return 2;
        }
        Optional<URI> enabled = Optional.empty();
        if (args.get(0).equals("enable")) {
            if (args.size() < 2 || args.get(1).startsWith("-")) {
                err.print(USAGE);
                return 2;
            }
            try {
                enabled = Optional.of(Webhooks.requireReceiver(new URI(args.get(1))));
            } catch (URISyntaxException | IllegalArgumentException e) {
                err.println("plantstore: webhooks enable: '" + RedactedUrl.of(args.get(1)) + "' is not a receiver's "
                        + "URL");
                return 2;
            }
        }
        Options options;
        try {
            options = Options.parse(args.subList(enabled.isPresent() ? 2 : 1, args.size()), env);
        } catch (UsageException e) {
            err.println("plantstore: " + e.getMessage());
            return 2;
        }
        if (options.action().isPresent()) {
            out.print(switch (options.action().get()) {
                case HELP -> USAGE;
                case VERSION -> BuildInfo.OF_THIS_BUILD.line() + System.lineSeparator();
            });
            return 0;
        }
        if (args.get(0).equals("public-key")) {
            return publicKeys(options, env, out, err);
        }
        if (!(options.get(STORE) instanceof StoreSpec.Sqlite) && !(options.get(STORE) instanceof StoreSpec.Postgres)) {
            err.println("plantstore: webhooks " + args.get(0) + " needs --store sqlite:PATH or jdbc:postgresql:...; "
                    + "the memory store keeps its events in the server's own memory");
            return 2;
        }
        StoreSpec store = options.get(STORE);
        if (store instanceof StoreSpec.Sqlite sqlite && !Files.exists(sqlite.file())) {
            // Opening it would make an empty store, where nothing is undeliverable: a typo would look like all is well.
            err.println("plantstore: store " + OpenStore.describe(store) + " does not exist: name the store the server "
                    + "runs on");
            return 2;
        }
        List<Optional<String>> receivers = destinations(options);
        DataSource dataSource;
        try {
            dataSource = dataSource(store, Options.secrets(env));
        } catch (RuntimeException e) {
            err.println("plantstore: " + OpenStore.cannotOpen(store, e));
            return 1;
        }
        try {
            var events = UndeliverableEvents.in(dataSource);
            if (enabled.isPresent()) {
                enable(events, enabled.get().toString(), out);
                return 0;
            }
            for (Optional<String> receiver : receivers) {
                if (args.get(0).equals("redeliver")) {
                    int again = events.redeliver(receiver);
                    out.println(again + " undeliverable event" + (again == 1 ? "" : "s") + " of "
                            + receiver.map(WebhooksCommand::shown).orElse("every receiver")
                            + " pending again; a running server sends them within a second");
                } else {
                    list(events, receiver, out);
                }
            }
            return 0;
        } catch (RuntimeException e) {
            err.println("plantstore: cannot reach store " + OpenStore.describe(store) + ": "
                    + OpenStore.reason(store, e));
            return 1;
        } finally {
            if (dataSource instanceof HikariDataSource pool) {
                pool.close();
            }
        }
    }

    /** Writes a new signing key to the one file named, which must not exist, readable and writable by its owner. */
    private static int newSigningKey(List<String> args, PrintStream out, PrintStream err) {
        if (args.size() != 1 || args.get(0).startsWith("-")) {
            err.print(USAGE);
            return 2;
        }
        Path file = Path.of(args.get(0));
        String key = WebhookSigningKeys.generate();
        try (var channel = Files.newByteChannel(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            channel.write(ByteBuffer.wrap((key + "\n").getBytes(StandardCharsets.US_ASCII)));
        } catch (FileAlreadyExistsException e) {
            err.println("plantstore: " + file + " already exists; a signing key is never written over: name a new "
                    + "file");
            return 2;
        } catch (IOException | UnsupportedOperationException e) {
            err.println("plantstore: cannot write " + file + ": " + e.getMessage());
            return 1;
        }
        try {
            out.println(WebhookSigningKeys.publicKeys(key).get(0));
        } catch (UsageException e) {
            throw new IllegalStateException("a new signing key is malformed: " + e.getMessage(), e);
        }
        return 0;
    }

    private static int publicKeys(Options options, Map<String, String> env, PrintStream out, PrintStream err) {
        var source = new WebhookConfig.Source(Options.secrets(env).webhookSigningKey(),
                options.get(WEBHOOK_SIGNING_KEY_FILE));
        if (!source.given()) {
            err.println("plantstore: webhooks public-key needs --webhook-signing-key-file or "
                    + "PLANTSTORE_WEBHOOK_SIGNING_KEY");
            return 2;
        }
        try {
            WebhookSigningKeys.publicKeys(source.read("webhook signing key file").orElseThrow()).forEach(out::println);
            return 0;
        } catch (UsageException e) {
            err.println("plantstore: " + e.getMessage());
            return 2;
        }
    }

    /**
     * The destinations the options name, the webhooks' receivers and the Kafka sink's topic; every destination when
     * they name none.
     */
    private static List<Optional<String>> destinations(Options options) {
        List<Optional<String>> named = new ArrayList<>();
        options.get(WEBHOOK_URL).forEach(url -> named.add(Optional.of(url.toString())));
        options.get(KAFKA_BOOTSTRAP_SERVERS).ifPresent(servers -> named.add(Optional.of(
                KafkaSink.to(servers, options.get(KAFKA_TOPIC)).target().toString())));
        return named.isEmpty() ? List.of(Optional.empty()) : List.copyOf(named);
    }

    private static void enable(UndeliverableEvents events, String receiver, PrintStream out) {
        if (events.enable(receiver)) {
            out.println(shown(receiver) + " turned on again: running servers send its new events within a second; "
                    + "`webhooks redeliver --webhook-url " + shown(receiver) + "` sends those kept while it was off");
        } else {
            out.println(shown(receiver) + " was not turned off");
        }
    }

    private static void list(UndeliverableEvents events, Optional<String> receiver, PrintStream out) {
        List<UndeliverableEvents.Event> listed = events.list(receiver, LISTED_AT_MOST + 1);
        if (listed.isEmpty()) {
            out.println("no undeliverable events" + receiver.map(url -> " to " + shown(url)).orElse(""));
        }
        for (UndeliverableEvents.Event event : listed.subList(0, Math.min(LISTED_AT_MOST, listed.size()))) {
            out.println(event.id() + " " + event.type() + " plant " + event.plantId() + " recorded "
                    + event.recordedAt() + " after " + event.attempts() + " attempts to " + shown(event.receiver()));
        }
        if (listed.size() > LISTED_AT_MOST) {
            out.println("(the first " + LISTED_AT_MOST + " shown; redeliver takes them all)");
        }
    }

    private static DataSource dataSource(StoreSpec store, Options.Secrets secrets) {
        if (store instanceof StoreSpec.Sqlite sqlite) {
            SQLiteDataSource existing = OpenStore.sqlite(sqlite.file());
            // Never creates the file, not even one removed since it was found to exist.
            existing.getConfig().resetOpenMode(SQLiteOpenMode.CREATE);
            return existing;
        }
        return OpenStore.postgresPool((StoreSpec.Postgres) store, secrets, OpenStore.COMMAND_POOL_SIZE);
    }

    private static String shown(String receiver) {
        return WebhookMetrics.shown(URI.create(receiver));
    }
}
