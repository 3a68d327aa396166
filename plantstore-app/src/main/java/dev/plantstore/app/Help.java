package dev.plantstore.app;

import java.util.ArrayList;
import java.util.List;

/** The {@code --help} text, written from the options' declarations so that it cannot disagree with them. */
final class Help {

    /** Where the help lines start, after the flag and its value. */
    private static final int HELP_COLUMN = 26;
    /** Lines are wrapped to fit this width. */
    private static final int WIDTH = 116;

    private Help() {
    }

    static String usage(List<Option<?>> options, List<Action> actions, List<Secret> secrets) {
        StringBuilder text = new StringBuilder("""
                Usage: java -jar plantstore.jar [options]
                       java -jar plantstore.jar migrate [options]
                       java -jar plantstore.jar backup FILE --store sqlite:PATH
                       java -jar plantstore.jar webhooks undeliverable|redeliver|enable URL [options]

                Serves the Plant Store API: POST /plants, DELETE /plants/{id}, and GET /health, /health/live and
                /health/ready. The migrate command creates the store's tables or migrates them to this release's schema,
                and exits. The backup command copies a SQLite store, while the server runs, into a new file. The
                webhooks command lists the store's undeliverable webhook events, or sends them again, or turns a
                receiver that answered 410 Gone on again.

                Options (each falls back to its environment variable):
                """);
        for (Option<?> option : options) {
            String source = option.variable() + (option.shownDefault().isEmpty() ? ""
                    : ", default " + option.shownDefault());
            String[] lines = option.help().split("\n", 2);
            String first = lines[0].endsWith(":")
                    ? lines[0].substring(0, lines[0].length() - 1) + " (" + source + "):"
                    : lines[0] + " (" + source + ")";
            entry(text, option.flag() + " " + option.valueName(), first);
            if (lines.length == 2) {
                lines[1].lines().forEach(line -> text.append(" ".repeat(HELP_COLUMN)).append(line).append('\n'));
            }
        }
        for (Action action : actions) {
            entry(text, String.join(", ", action.flags()), action.help());
        }
        text.append("\nFrom the environment only, since a secret given as a flag is visible to every user"
                + " through ps:\n");
        for (Secret secret : secrets) {
            entry(text, secret.variable(), secret.help());
        }
        text.append("\nTraces: off unless the OpenTelemetry SDK's own variables say where they go, such as\n");
        entry(text, "OTEL_EXPORTER_OTLP_ENDPOINT", "where to send spans over OTLP/HTTP (http://HOST:4318); with "
                + "OTEL_TRACES_SAMPLER, OTEL_SERVICE_NAME and the others of the SDK's autoconfiguration");
        return text.toString();
    }

    /** {@code name} in the first column, {@code help} wrapped in the second, starting on the same line if it fits. */
    private static void entry(StringBuilder text, String name, String help) {
        String head = "  " + name;
        List<String> lines = wrap(help, WIDTH - HELP_COLUMN);
        if (head.length() < HELP_COLUMN) {
            text.append(head).append(" ".repeat(HELP_COLUMN - head.length())).append(lines.get(0)).append('\n');
            lines = lines.subList(1, lines.size());
        } else {
            text.append(head).append('\n');
        }
        lines.forEach(line -> text.append(" ".repeat(HELP_COLUMN)).append(line).append('\n'));
    }

    private static List<String> wrap(String words, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : words.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (!line.isEmpty()) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
