package dev.plantstore.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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

        /**
         * {@code text} with this URL's user information and password parameters masked: the driver's messages may
         * quote them (it takes {@code user:password@host} for a host name).
         */
        String masked(String text) {
            String masked = text;
            for (String secret : secrets()) {
                masked = masked.replace(secret, "***");
            }
            return masked;
        }

        private List<String> secrets() {
            List<String> secrets = new ArrayList<>();
            String[] addressAndParameters = url.split("\\?", 2);
            int hostStart = addressAndParameters[0].indexOf("//") + 2;
            int at = addressAndParameters[0].indexOf('@');
            if (at > hostStart) {
                secrets.add(addressAndParameters[0].substring(hostStart, at));
            }
            if (addressAndParameters.length == 2) {
                for (String parameter : addressAndParameters[1].split("&")) {
                    String[] nameAndValue = parameter.split("=", 2);
                    if (nameAndValue.length == 2 && !nameAndValue[1].isEmpty()
                            && nameAndValue[0].toLowerCase(Locale.ROOT).contains("password")) {
                        secrets.add(nameAndValue[1]);
                    }
                }
            }
            return secrets;
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
        throw new UsageException(source + " must be memory, sqlite:PATH or jdbc:postgresql://HOST/DATABASE, got '"
                + Options.redactedUrl(spec) + "'");
    }
}
