package dev.plantstore.app;

import java.nio.file.Path;

/** What {@code --store} names: memory, a SQLite file, or a PostgreSQL database. */
sealed interface StoreSpec {

    String DEFAULT = "sqlite:plantstore.db";

    record Memory() implements StoreSpec {
    }

    record Sqlite(Path file) implements StoreSpec {
    }

    /** {@code url} may carry credentials; {@link #redacted()} is the form fit for messages. */
    record Postgres(String url) implements StoreSpec {

        /** The URL without user information or parameters, which is where credentials would be. */
        String redacted() {
            String withoutParameters = url.split("\\?", 2)[0];
            int at = withoutParameters.indexOf('@');
            int hostStart = withoutParameters.indexOf("//") + 2;
            return at > hostStart ? withoutParameters.substring(0, hostStart) + withoutParameters.substring(at + 1)
                    : withoutParameters;
        }

        @Override
        public String toString() {
            return "Postgres[" + redacted() + "]";
        }
    }

    static StoreSpec parse(String source, String value) throws UsageException {
        String spec = value.strip();
        if (spec.equals("memory")) {
            return new Memory();
        }
        if (spec.startsWith("sqlite:") && spec.length() > "sqlite:".length()) {
            return new Sqlite(Path.of(spec.substring("sqlite:".length())));
        }
        if (spec.startsWith("jdbc:postgresql:")) {
            return new Postgres(spec);
        }
        throw new UsageException(source + " must be memory, sqlite:PATH or jdbc:postgresql://HOST/DATABASE");
    }
}
