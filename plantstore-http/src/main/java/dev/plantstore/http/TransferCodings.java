package dev.plantstore.http;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpScheme;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Answers 501 to a request whose {@code Transfer-Encoding} names any coding but {@code chunked}, and closes its
 * connection (RFC 9112 section 6.1). Jetty reads {@code gzip, chunked} as plain chunked, ignoring the gzip: a proxy
 * in front that decodes it, or refuses it, would disagree with the server about the body. Jetty has no compliance
 * setting for this, so it is checked here, before anything reads the body.
 *
 * <p>Over HTTP/2, where a body is framed by the protocol alone, answers 400 to the requests RFC 9113 calls malformed
 * that Jetty's decoder lets through: one with a connection-specific field (section 8.2.2; Jetty itself answers 400 to
 * a {@code te} other than {@code trailers} and a {@code connection} other than {@code te}), and one whose
 * {@code :scheme} is {@code http} on a TLS connection (section 8.3.1), which Jetty would serve as a secure request
 * all the same.
 */
final class TransferCodings extends Handler.Wrapper {

    /** RFC 9113 section 8.2.2's connection-specific fields but {@code te}, which Jetty's decoder checks. */
    private static final Set<HttpHeader> CONNECTION_SPECIFIC = EnumSet.of(HttpHeader.CONNECTION,
            HttpHeader.KEEP_ALIVE, HttpHeader.PROXY_CONNECTION, HttpHeader.TRANSFER_ENCODING, HttpHeader.UPGRADE);

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2) {
            Optional<String> malformed = malformedOverHttp2(request);
            if (malformed.isPresent()) {
                var refusal = new ApiProblem(400, malformed.get());
                Response.writeError(request, response, callback, 400, refusal.getMessage(), refusal);
                return true;
            }
            return super.handle(request, response, callback);
        }
        if (!request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING)) {
            return super.handle(request, response, callback);
        }
        for (HttpField field : request.getHeaders().getFields(HttpHeader.TRANSFER_ENCODING)) {
            for (String coding : field.getValues()) {
                if (!coding.equalsIgnoreCase(HttpHeaderValue.CHUNKED.asString())) {
                    var refusal = new ApiProblem(501, "Transfer-Encoding " + coding
                            + " is not supported; send the body with Content-Length or chunked alone");
                    response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
                    Response.writeError(request, response, callback, 501, refusal.getMessage(), refusal);
                    return true;
                }
            }
        }
        return super.handle(request, response, callback);
    }

    private static Optional<String> malformedOverHttp2(Request request) {
        for (HttpField field : request.getHeaders()) {
            if (CONNECTION_SPECIFIC.contains(field.getHeader())) {
                return Optional.of("malformed HTTP/2 request: " + field.getLowerCaseName()
                        + " is a connection-specific field, which HTTP/2 forbids (RFC 9113 section 8.2.2)");
            }
        }
        if (request.getConnectionMetaData().isSecure() && HttpScheme.HTTP.is(request.getHttpURI().getScheme())) {
            return Optional.of("malformed HTTP/2 request: :scheme http on a TLS connection, where it is https");
        }
        return Optional.empty();
    }
}
