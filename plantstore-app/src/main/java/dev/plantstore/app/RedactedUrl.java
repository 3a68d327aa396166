package dev.plantstore.app;

/**
 * A URL that does not parse, as a message may quote it: without what could be credentials, the user information (up
 * to the last {@code @} of the authority) and everything from the query or fragment on.
 */
final class RedactedUrl {

    private RedactedUrl() {
    }

    static String of(String url) {
        int end = url.length();
        for (char cut : new char[] {'?', '#'}) {
            int at = url.indexOf(cut);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        String kept = url.substring(0, end);
        int authority = kept.indexOf("//");
        if (authority < 0) {
            return kept;
        }
        int pathStart = kept.indexOf('/', authority + 2);
        int authorityEnd = pathStart < 0 ? kept.length() : pathStart;
        int at = kept.lastIndexOf('@', authorityEnd - 1);
        return at <= authority ? kept : kept.substring(0, authority + 2) + kept.substring(at + 1);
    }
}
