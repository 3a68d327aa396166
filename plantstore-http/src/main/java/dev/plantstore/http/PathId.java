package dev.plantstore.http;

/**
 * The {@code {id}} of {@code /plants/{id}}: an optional minus sign and ASCII digits, within int64. Stricter than
 * {@link Long#parseLong}, which also takes a plus sign and digits of other scripts.
 */
final class PathId {

    private PathId() {
    }

    static long parse(String raw) {
        int start = raw.startsWith("-") ? 1 : 0;
        if (raw.length() == start) {
            throw notAnId();
        }
        for (int i = start; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < '0' || c > '9') {
                throw notAnId();
            }
        }
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new ApiProblem(400, "id in the path must be within the int64 range "
                    + Long.MIN_VALUE + " to " + Long.MAX_VALUE);
        }
    }

    private static ApiProblem notAnId() {
        return new ApiProblem(400, "id in the path must be a base-10 integer");
    }
}
