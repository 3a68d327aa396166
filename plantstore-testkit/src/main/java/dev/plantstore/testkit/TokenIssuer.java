package dev.plantstore.testkit;

/**
 * An identity provider to try the server's JWT access tokens with, and to run the benchmarks with them:
 * {@code ./mvnw -q -pl plantstore-testkit exec:java -Dexec.args=PORT} starts a real OAuth 2.0 server on
 * 127.0.0.1:PORT, prints its issuer on the first line and, on the second, an access token for the audience
 * {@value IdentityProvider#AUDIENCE} with both plant scopes, valid for an hour, then serves its discovery and keys
 * until stopped.
 */
public final class TokenIssuer {

    private TokenIssuer() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length == 1 && args[0].matches("\\d{1,5}") ? Integer.parseInt(args[0]) : -1;
        if (port < 1 || port > 65_535) {
            System.err.println("usage: TokenIssuer PORT (1 to 65535), got " + String.join(" ", args));
            System.exit(2);
        }
        IdentityProvider provider;
        try {
            provider = IdentityProvider.start(port);
        } catch (Exception e) {
            // A port in use, mostly, which the Kotlin server throws as an undeclared BindException: one line, not the
            // build tool's report of a failed goal.
            System.err.println("cannot serve on 127.0.0.1:" + port + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        System.out.println(provider.issuer());
        System.out.println(provider.clientCredentialsToken("inventory-service", "plants:create plants:delete"));
        Thread.currentThread().join();
    }
}
