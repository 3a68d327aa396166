package dev.plantstore.http;

/**
 * The {@code {id}} of {@code /plants/{id}}: an integer as JSON writes it (an optional minus sign, ASCII digits, no
 * leading zero), within int64, so that the path takes exactly the ids the body does and the OpenAPI document's int64
 * describes it. Stricter than {@link Long#parseLong}, which also takes a plus sign, leading zeros and digits of other
 * scripts.
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
        if (raw.charAt(start) == '0' && raw.length() > start + 1) {
            throw new ApiProblem(400, "id in the path must not have leading zeros");
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
