package dev.plantstore.http;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Answers 501 to a request whose {@code Transfer-Encoding} names any coding but {@code chunked}, and closes its
 * connection (RFC 9112 section 6.1). Jetty reads {@code gzip, chunked} as plain chunked, ignoring the gzip: a proxy
 * in front that decodes it, or refuses it, would disagree with the server about the body. Jetty has no compliance
 * setting for this, so it is checked here, before anything reads the body.
 */
final class TransferCodings extends Handler.Wrapper {

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
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
}
