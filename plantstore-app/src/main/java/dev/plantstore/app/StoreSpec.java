package dev.plantstore.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** What {@code --store} names: memory, a SQLite file, or a PostgreSQL database. */
sealed interface StoreSpec {

    String DEFAULT = "sqlite:plantstore.db";

    record Memory() implements StoreSpec {
    }

    record Sqlite(Path file) implements StoreSpec {
    }

    /** {@code url} may carry credentials; {@link #redacted()} is the form fit for messages. */
    record Postgres(String url) implements StoreSpec {

        /** A host and port as the driver takes one: a name or bracketed address, and a port that is a number. */
        private static final Pattern HOST = Pattern.compile("(\\[[^\\]]*\\]|[^:\\[\\]]*)(:\\d+)?");

        /** The URL with every host, but without user information or parameters, which is where credentials would be. */
        String redacted() {
            Address address = address();
            return address.beforeHosts() + String.join(",", address.hosts()) + address.afterHosts();
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
            List<String> secrets = new ArrayList<>(address().secrets());
            String[] addressAndParameters = url.split("\\?", 2);
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

        /**
         * The URL up to its parameters, around its hosts. The driver takes the hosts from {@code //} to the next
         * {@code /}, separated by commas; here they end at the first {@code /} after the last {@code @}, as a password
         * may hold a slash. User information before a host ends at its last {@code @}. A piece that is no host and
         * port is part of a password holding a comma: the driver refuses such a URL, and the piece is shown as
         * {@code ***}.
         */
        private Address address() {
            String address = url.split("\\?", 2)[0];
            int slashes = address.indexOf("//");
            if (slashes < 0) {
                return new Address(address, List.of(), "", List.of());
            }
            int hostsStart = slashes + 2;
            int hostsEnd = address.indexOf('/', Math.max(hostsStart, address.lastIndexOf('@')));
            if (hostsEnd < 0) {
                hostsEnd = address.length();
            }
            List<String> hosts = new ArrayList<>();
            List<String> secrets = new ArrayList<>();
            for (String entry : address.substring(hostsStart, hostsEnd).split(",", -1)) {
                int at = entry.lastIndexOf('@');
                if (at > 0) {
                    secrets.add(entry.substring(0, at));
                }
                String host = entry.substring(at + 1);
                if (HOST.matcher(host).matches()) {
                    hosts.add(host);
                } else {
                    secrets.add(host);
                    hosts.add("***");
                }
            }
            return new Address(address.substring(0, hostsStart), hosts, address.substring(hostsEnd), secrets);
        }

        private record Address(String beforeHosts, List<String> hosts, String afterHosts, List<String> secrets) {
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
                + RedactedUrl.of(spec) + "'");
    }
}
