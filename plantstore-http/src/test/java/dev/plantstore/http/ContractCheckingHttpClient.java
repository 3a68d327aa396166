package dev.plantstore.http;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * The HTTP client of every in-process HTTP test: it checks each exchange against the bundled openapi.yaml with
 * Atlassian's validator, so an undocumented status, a wrong content type or a body off its schema fails the test
 * that caused it. A response is always checked against its operation; the request too when the server accepted it
 * (a 2xx), since refused requests are deliberately malformed. Exchanges with paths or methods the document does not
 * describe (the 404 and 405 tests) are left to those tests' own assertions.
 */
final class ContractCheckingHttpClient extends HttpClient {

    private static final OpenApiInteractionValidator VALIDATOR = OpenApiInteractionValidator
            .createForInlineApiSpecification(new String(ApiDocsResource.yaml(), StandardCharsets.UTF_8))
            .withLevelResolver(LevelResolver.create()
                    .withLevel("validation.request.path.missing", ValidationReport.Level.IGNORE)
                    .withLevel("validation.request.operation.notAllowed", ValidationReport.Level.IGNORE)
                    .build())
            .build();

    private final HttpClient delegate;
    private final boolean onlyHttp2;

    ContractCheckingHttpClient() {
        this(HttpClient.newHttpClient(), false);
    }

    /**
     * Sends through {@code delegate}; with {@code onlyHttp2}, an exchange answered over another version fails the
     * test, so that a suite meant to run over HTTP/2 cannot pass over HTTP/1.1 unnoticed.
     */
    ContractCheckingHttpClient(HttpClient delegate, boolean onlyHttp2) {
        this.delegate = delegate;
        this.onlyHttp2 = onlyHttp2;
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        byte[] requestBody = bodyOf(request);
        HttpResponse<byte[]> response = delegate.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (onlyHttp2 && response.version() != Version.HTTP_2) {
            throw new AssertionError(request.method() + " " + request.uri() + " was answered over "
                    + response.version() + ", not HTTP/2");
        }
        check(request, requestBody, response);
        return new ConvertedResponse<>(response, convert(response, handler));
    }

    private static void check(HttpRequest request, byte[] requestBody, HttpResponse<byte[]> response) {
        String path = request.uri().getRawPath();
        Request.Method method = Request.Method.valueOf(request.method());
        var apiRequest = new SimpleRequest.Builder(method, path);
        request.headers().map().forEach(apiRequest::withHeader);
        if (requestBody.length > 0) {
            apiRequest.withBody(requestBody);
        }
        var apiResponse = new SimpleResponse.Builder(response.statusCode());
        response.headers().map().forEach(apiResponse::withHeader);
        if (response.body().length > 0) {
            apiResponse.withBody(response.body());
        }
        boolean accepted = response.statusCode() / 100 == 2;
        ValidationReport report = accepted
                ? VALIDATOR.validate(apiRequest.build(), apiResponse.build())
                : VALIDATOR.validateResponse(path, method, apiResponse.build());
        if (report.hasErrors()) {
            throw new AssertionError("the exchange breaks openapi.yaml: " + request.method() + " " + path + " -> "
                    + response.statusCode() + " " + new String(response.body(), StandardCharsets.UTF_8) + "\n"
                    + report.getMessages());
        }
    }

    /** The request body as the client will send it; the test publishers can all be read twice. */
    private static byte[] bodyOf(HttpRequest request) {
        Optional<HttpRequest.BodyPublisher> publisher = request.bodyPublisher();
        if (publisher.isEmpty()) {
            return new byte[0];
        }
        var collected = new CompletableFuture<byte[]>();
        publisher.get().subscribe(new Flow.Subscriber<>() {
            private final List<ByteBuffer> parts = new ArrayList<>();

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer item) {
                parts.add(item);
            }

            @Override
            public void onError(Throwable throwable) {
                collected.completeExceptionally(throwable);
            }

            @Override
            public void onComplete() {
                int size = parts.stream().mapToInt(ByteBuffer::remaining).sum();
                var all = ByteBuffer.allocate(size);
                parts.forEach(all::put);
                collected.complete(all.array());
            }
        });
        try {
            return collected.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not read the request body for the contract check", e);
        }
    }

    private static <T> T convert(HttpResponse<byte[]> response, HttpResponse.BodyHandler<T> handler) {
        HttpResponse.ResponseInfo info = new HttpResponse.ResponseInfo() {
            @Override
            public int statusCode() {
                return response.statusCode();
            }

            @Override
            public HttpHeaders headers() {
                return response.headers();
            }

            @Override
            public Version version() {
                return response.version();
            }
        };
        HttpResponse.BodySubscriber<T> subscriber = handler.apply(info);
        subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
            }

            @Override
            public void cancel() {
            }
        });
        // As the JDK's client does: an empty body is completion alone, never an empty buffer, which its subscribers
        // assert against.
        if (response.body().length > 0) {
            subscriber.onNext(List.of(ByteBuffer.wrap(response.body())));
        }
        subscriber.onComplete();
        try {
            return subscriber.getBody().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new UncheckedIOException(new IOException("could not convert the response body", e));
        }
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return send(request, handler);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        return sendAsync(request, handler);
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }

    /** The delegate's response, with its body converted as the caller's handler asked. */
    private record ConvertedResponse<T>(HttpResponse<byte[]> raw, T body) implements HttpResponse<T> {

        @Override
        public int statusCode() {
            return raw.statusCode();
        }

        @Override
        public HttpRequest request() {
            return raw.request();
        }

        @Override
        public Optional<HttpResponse<T>> previousResponse() {
            return Optional.empty();
        }

        @Override
        public HttpHeaders headers() {
            return raw.headers();
        }

        @Override
        public Optional<SSLSession> sslSession() {
            return raw.sslSession();
        }

        @Override
        public URI uri() {
            return raw.uri();
        }

        @Override
        public Version version() {
            return raw.version();
        }
    }
}
