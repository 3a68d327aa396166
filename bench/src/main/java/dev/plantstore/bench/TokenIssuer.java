package dev.plantstore.bench;

import dev.plantstore.testkit.IdentityProvider;

/**
 * An identity provider for throughput runs: {@code java -cp bench.jar dev.plantstore.bench.TokenIssuer PORT} starts
 * a real OAuth 2.0 server on 127.0.0.1:PORT, prints its issuer on the first line and, on the second, an access token
 * for the audience {@value IdentityProvider#AUDIENCE} with both plant scopes, valid for an hour, then serves its
 * discovery and keys until stopped. A run gives the issuer to the server and the token to the load generator.
 */
public final class TokenIssuer {

    private TokenIssuer() {
    }

    public static void main(String[] args) throws Exception {
        var provider = IdentityProvider.start(Integer.parseInt(args[0]));
        System.out.println(provider.issuer());
        System.out.println(provider.clientCredentialsToken("load-generator", "plants:create plants:delete"));
        Thread.currentThread().join();
    }
}
