package dev.plantstore.http;

import java.util.Locale;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The management port's answer to DNS rebinding: 421 for a request whose Host is a name other than the port's own or
 * {@code localhost}; an IP address, or no Host at all, gets through.
 */
final class OwnHosts extends Handler.Wrapper {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final String ownName;

    OwnHosts(String ownName) {
        this.ownName = ownName.toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        HttpURI uri = request.getHttpURI();
        String host = uri == null || uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        // No Host at all (an HTTP/1.0 probe) is not a browser's request, and so not a rebinding page's.
        if (host.isEmpty() || host.startsWith("[") || IPV4.matcher(host).matches() || host.equals("localhost")
                || host.equals(ownName)) {
            return super.handle(request, response, callback);
        }
        var refusal = new ApiProblem(421, "this port answers only to its own addresses and names, not " + host);
        Response.writeError(request, response, callback, 421, refusal.getMessage(), refusal);
        return true;
    }
}
