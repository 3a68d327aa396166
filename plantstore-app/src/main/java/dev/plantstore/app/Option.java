package dev.plantstore.app;

import java.util.Locale;
import java.util.Map;

/**
 * One option as declared in the table.
 *
 * @param valueName    what {@code --help} shows after the flag
 * @param help         the help line; lines after the first are shown as they are, below the first
 * @param defaultValue the value when neither the flag nor the variable is given
 * @param shownDefault the default as {@code --help} says it, empty for none
 */
record Option<T>(String flag, String valueName, String help, Parser<T> parser, T defaultValue,
                 String shownDefault) {

    /** The environment variables' common prefix: {@code --max-body-bytes} falls back to PLANTSTORE_MAX_BODY_BYTES. */
    static final String VARIABLE_PREFIX = "PLANTSTORE_";

    /** An option whose default is written as a user would give it, and parsed as a given value would be. */
    static <T> Option<T> of(String flag, String valueName, String help, Parser<T> parser, String defaultText) {
        try {
            return new Option<>(flag, valueName, help, parser, parser.parse(new Given(defaultText, flag)),
                    defaultText);
        } catch (UsageException e) {
            throw new IllegalArgumentException("the default of " + flag + " is not a valid value", e);
        }
    }

    /** An option that is off or empty unless given: no value a user could give means the same. */
    static <T> Option<T> withoutDefault(String flag, String valueName, String help, Parser<T> parser,
                                        T absent, String shownDefault) {
        return new Option<>(flag, valueName, help, parser, absent, shownDefault);
    }

    /** {@code --max-body-bytes} falls back to {@code PLANTSTORE_MAX_BODY_BYTES}. */
    String variable() {
        return VARIABLE_PREFIX + flag.substring(2).toUpperCase(Locale.ROOT).replace('-', '_');
    }

    T valueIn(Map<String, Given> given) throws UsageException {
        Given value = given.get(flag);
        return value == null ? defaultValue : parser.parse(value);
    }

    /** Turns a given value into an option's value, or refuses it naming where it came from. */
    @FunctionalInterface
    interface Parser<T> {
        T parse(Given given) throws UsageException;
    }

    /** A value as given, and where it came from (the flag or the variable), for the message if it is bad. */
    record Given(String value, String source) {
    }
}
