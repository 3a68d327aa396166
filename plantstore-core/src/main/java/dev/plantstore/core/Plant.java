package dev.plantstore.core;

import java.util.Optional;

/**
 * A stored plant as the interface returns it: a name and an optional tag.
 *
 * @param name the plant's name; never null or empty
 * @param tag  the tag that specifies the plant's type, or {@code null} when the plant has none
 */
public record Plant(String name, String tag) {

    /**
     * Validates the texts.
     *
     * @throws InvalidPlantException when the name is missing or empty, or either text is not valid Unicode
     */
    public Plant {
        PlantText.requireName(name);
        PlantText.requireTag(tag);
    }

    /** The tag, or empty when the plant has none. */
    public Optional<String> optionalTag() {
        return Optional.ofNullable(tag);
    }

    /**
     * The plant as the API's bodies and the events write it: {@code {"name":"Monstera","tag":"aroid"}}, an absent tag
     * left out. Control characters, U+2028 and U+2029 are escaped, so that the text is also safe inside JavaScript.
     */
    public String toJson() {
        var json = new StringBuilder(16 + name.length() + (tag == null ? 0 : 8 + tag.length())).append("{\"name\":");
        string(json, name);
        if (tag != null) {
            json.append(",\"tag\":");
            string(json, tag);
        }
        return json.append('}').toString();
    }

    private static void string(StringBuilder json, String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
