package dev.plantstore.app;

import dev.plantstore.app.Option.Given;
import dev.plantstore.core.Webhooks;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.oidc.OidcTokenVerifier;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/** How the options' values are read: each parser refuses a bad value naming where it came from (flag or variable). */
final class OptionValues {

    private OptionValues() {
    }

    static Duration parseSeconds(Given given, int min, int max) throws UsageException {
        return Duration.ofSeconds(parseInt(given, min, max));
    }

    static LogLines.Format parseLogFormat(Given given) throws UsageException {
        return switch (given.value().strip().toLowerCase(Locale.ROOT)) {
            case "text" -> LogLines.Format.TEXT;
            case "json" -> LogLines.Format.JSON;
            default -> throw new UsageException(given.source() + " must be text or json, got '" + given.value() + "'");
        };
    }

    static boolean parseOnOff(Given given) throws UsageException {
        return switch (given.value().strip().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new UsageException(given.source() + " must be on or off, got '" + given.value() + "'");
        };
    }

    /** Split at commas, each entry checked by {@code rule}, which the API applies to it again when it is set. */
    static List<String> parseList(Given given, UnaryOperator<String> rule) throws UsageException {
        List<String> entries = new ArrayList<>();
        for (String entry : given.value().split(",")) {
            if (!entry.isBlank()) {
                entries.add(checked(given, entry.strip(), rule));
            }
        }
        return List.copyOf(entries);
    }

    /**
     * Split and parsed, each an http or https URL with a host and no fragment; that none is given twice is checked with
     * the secret.
     */
    static List<URI> parseUrls(Given given) throws UsageException {
        List<URI> urls = new ArrayList<>();
        for (String url : given.value().split(",")) {
            if (!url.isBlank()) {
                try {
                    urls.add(checked(given, new URI(url.strip()), Webhooks::requireReceiver));
                } catch (URISyntaxException e) {
                    throw new UsageException(
                            given.source() + ": '" + RedactedUrl.of(url.strip()) + "' is not a URL");
                }
            }
        }
        return List.copyOf(urls);
    }

    static String parseScope(Given given) throws UsageException {
        return checked(given, requireNonBlank(given), PlantStoreApi::requireScope);
    }

    /** {@code value} as {@code rule} returns it once accepted; a refusal is prefixed with where it came from. */
    static <T> T checked(Given given, T value, UnaryOperator<T> rule) throws UsageException {
        try {
            return rule.apply(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(given.source() + ": " + e.getMessage());
        }
    }

    static URI parseIssuer(Given given) throws UsageException {
        try {
            return OidcTokenVerifier.requireIssuer(new URI(requireNonBlank(given)));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new UsageException(given.source() + " must be an http or https URL without query or fragment, got '"
                    + given.value() + "'");
        }
    }

    static String requireNonBlank(Given given) throws UsageException {
        if (given.value().isBlank()) {
            throw new UsageException(given.source() + " must not be empty");
        }
        return given.value().strip();
    }

    static int parseInt(Given given, int min, int max) throws UsageException {
        try {
            int parsed = Integer.parseInt(given.value().strip());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // Falls through to the one message that covers both kinds of bad value.
        }
        throw new UsageException(given.source() + " must be an integer from " + min + " to " + max + ", got '"
                + given.value() + "'");
    }
}
