package dev.plantstore.http;

import dev.plantstore.core.ApiError;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error responses (a malformed request line, a bad URI, headers too large) in the API's Error shape
 * instead of an HTML page, whatever the request's method. The message is the status's reason phrase, an
 * {@link ApiProblem}'s own when the server refused the request in its own words, or what makes a refused path
 * ambiguous: Jetty's detail stays out of the response.
 */
final class JsonErrorHandler extends ErrorHandler {

    /** What makes a path ambiguous: a proxy in front, which may decode it or not, could route another path. */
    private static final Set<UriCompliance.Violation> AMBIGUITIES = EnumSet.of(
            UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR, UriCompliance.Violation.AMBIGUOUS_PATH_SEGMENT,
            UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING, UriCompliance.Violation.AMBIGUOUS_EMPTY_SEGMENT);
    private static final String AMBIGUOUS_PATH = "ambiguous path: an encoded '/', '.' or '%' (%2F, %2E, %25) or an "
            + "empty segment is not accepted, since a proxy and this server could read it as different paths";

    JsonErrorHandler() {
        setCacheControl(SecurityHeaders.CACHE_CONTROL);
    }

    /** Jetty writes no body for methods other than GET, POST and HEAD; every refusal of this server has one. */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Json.CONTENT_TYPE);
        response.getHeaders().put(SecurityHeaders.CONTENT_TYPE_OPTIONS_HEADER, SecurityHeaders.CONTENT_TYPE_OPTIONS);
        if (!response.getHeaders().contains(RequestIds.HEADER)) {
            // Jetty refused the request before any handler ran, so no id was given yet.
            response.getHeaders().put(RequestIds.HEADER,
                    RequestIds.acceptOrGenerate(request.getHeaders().get(RequestIds.HEADER)));
        }
        String text = cause instanceof ApiProblem problem ? problem.getMessage()
                : code == HttpStatus.BAD_REQUEST_400 && isRefusedAsAmbiguous(request) ? AMBIGUOUS_PATH
                : HttpStatus.getMessage(code);
        response.write(true, ByteBuffer.wrap(Json.bytes(new ApiError(code, text))), callback);
    }

    /** Whether the path has an ambiguity that this connection's URI compliance does not allow. */
    private static boolean isRefusedAsAmbiguous(Request request) {
        HttpURI uri = request.getHttpURI();
        UriCompliance compliance = request.getConnectionMetaData().getHttpConfiguration().getUriCompliance();
        return uri != null && uri.getViolations().stream()
                .anyMatch(violation -> AMBIGUITIES.contains(violation) && !compliance.allows(violation));
    }
}
