package dev.plantstore.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.plantstore.core.ApiError;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The API's OpenAPI document at {@code /openapi.yaml} and {@code /openapi.json}, and Swagger UI at {@code /docs}, all
 * without a token. Swagger UI comes from its webjar on the class path: the page loads nothing from the internet.
 */
final class ApiDocs {

    private static final String YAML_RESOURCE = "openapi.yaml";
    private static final String OIDC_SCHEME = "identityProvider";
    private static final String SWAGGER_UI_PROPERTIES = "/META-INF/maven/org.webjars/swagger-ui/pom.properties";

    /** The files the docs page loads, and their content types; nothing else is served from the webjar. */
    private static final Map<String, String> SWAGGER_UI_FILES = Map.of(
            "swagger-ui.css", "text/css",
            "swagger-ui-bundle.js", "text/javascript");

    /**
     * The page loads its script, styles and the document from this server only, and no other page may frame it (so a
     * click on it cannot be hijacked). Swagger UI sets inline styles and draws some images as data: URLs.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private final byte[] yaml;
    /** Converted from the YAML on first request: the conversion loads a YAML parser, a tenth of the start-up time. */
    private volatile byte[] json;
    private final byte[] page;
    private final byte[] init;
    private final String swaggerUiDirectory;

    private ApiDocs(boolean health, Optional<IdentityProvider> identityProvider) {
        byte[] document = resource(ApiDocs.class, YAML_RESOURCE);
        yaml = health && identityProvider.isEmpty() ? document : rewritten(document, health, identityProvider);
        page = resource(ApiDocs.class, "docs/index.html");
        init = resource(ApiDocs.class, "docs/init.js");
        swaggerUiDirectory = "/META-INF/resources/webjars/swagger-ui/" + swaggerUiVersion() + "/";
    }

    /** An OpenID Connect issuer whose tokens grant {@code scopes}, for the document's security scheme. */
    record IdentityProvider(URI issuer, BearerAuth.Scopes scopes) {
    }

    /**
     * The document and the page, read once: a missing resource fails here, at start, not on a request. The document
     * lists the health paths only if {@code health} says the application serves them, and names the identity
     * provider's scheme and scopes if there is one.
     */
    static ApiDocs load(boolean health, Optional<IdentityProvider> identityProvider) {
        return new ApiDocs(health, identityProvider);
    }

    void mount(JavalinConfig config) {
        AllowedMethods.get(config, "/openapi.yaml", ctx -> send(ctx, "application/yaml", yaml));
        AllowedMethods.get(config, "/openapi.json", ctx -> send(ctx, Json.CONTENT_TYPE, json()));
        AllowedMethods.get(config, "/docs", this::page);
        AllowedMethods.get(config, "/docs/init.js", ctx -> send(ctx, "text/javascript", init));
        AllowedMethods.get(config, "/docs/{file}", this::swaggerUiFile);
    }

    /**
     * The page's URLs are relative to {@code /docs}, so that it works under any context path; from {@code /docs/},
     * which Javalin routes here too, they would point under {@code /docs/docs/}, so that address redirects.
     */
    private void page(Context ctx) {
        if (ctx.path().endsWith("/")) {
            ctx.redirect("../docs", HttpStatus.MOVED_PERMANENTLY);
            return;
        }
        ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        ctx.header("X-Frame-Options", "DENY");
        send(ctx, "text/html; charset=utf-8", page);
    }

    /** Two first requests at once may both convert; they get equal bytes, and one conversion is kept. */
    private byte[] json() {
        byte[] converted = json;
        if (converted == null) {
            converted = toJson(yaml);
            json = converted;
        }
        return converted;
    }

    private void swaggerUiFile(Context ctx) {
        String file = ctx.pathParam("file");
        String contentType = SWAGGER_UI_FILES.get(file);
        if (contentType == null) {
            Json.respond(ctx, new ApiError(404, "no such file: /docs/" + file));
            return;
        }
        send(ctx, contentType, resource(ApiDocs.class, swaggerUiDirectory + file));
    }

    private void send(Context ctx, String contentType, byte[] body) {
        SecurityHeaders.noSniff(ctx);
        ctx.contentType(contentType).result(body);
    }

    /** Written by {@link Json}, as every JSON body is; the data binding only walks the tree. */
    private static byte[] toJson(byte[] yaml) {
        try {
            JsonNode document = new YAMLMapper().readTree(yaml);
            return Json.write(generator -> new ObjectMapper().writeTree(generator, document));
        } catch (IOException e) {
            throw new UncheckedIOException("the bundled openapi.yaml is not valid YAML", e);
        }
    }

    /**
     * The document re-written without its {@code /health} paths unless {@code health}, and with the identity
     * provider's {@code openIdConnect} scheme as an alternative to the bearer scheme, each operation requiring its
     * scope; comments and layout are not kept.
     */
    private static byte[] rewritten(byte[] yaml, boolean health, Optional<IdentityProvider> identityProvider) {
        try {
            var mapper = new YAMLMapper();
            JsonNode document = mapper.readTree(yaml);
            ObjectNode paths = (ObjectNode) document.get("paths");
            if (!health) {
                paths.properties().removeIf(path -> path.getKey().startsWith("/health"));
            }
            identityProvider.ifPresent(provider -> {
                ((ObjectNode) document.get("components").get("securitySchemes")).putObject(OIDC_SCHEME)
                        .put("type", "openIdConnect")
                        .put("openIdConnectUrl", provider.issuer().toString().replaceAll("/+$", "")
                                + "/.well-known/openid-configuration")
                        .put("description", "An access token (a JWT) from this identity provider, for the audience "
                                + "the server is configured with; it must grant the operation's scope.");
                requireScope((ObjectNode) paths.get("/plants").get("post"), provider.scopes().create());
                requireScope((ObjectNode) paths.get("/plants/{id}").get("delete"), provider.scopes().delete());
            });
            return mapper.writeValueAsBytes(document);
        } catch (IOException e) {
            throw new UncheckedIOException("the bundled openapi.yaml is not valid YAML", e);
        }
    }

    /** Either the configured bearer tokens, or the identity provider's token with {@code scope}. */
    private static void requireScope(ObjectNode operation, String scope) {
        var security = operation.putArray("security");
        security.addObject().putArray("bearerAuth");
        security.addObject().putArray(OIDC_SCHEME).add(scope);
    }

    private static String swaggerUiVersion() {
        try (InputStream in = ApiDocs.class.getResourceAsStream(SWAGGER_UI_PROPERTIES)) {
            if (in == null) {
                throw new IllegalStateException("Swagger UI's webjar is not on the class path");
            }
            var properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] resource(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
