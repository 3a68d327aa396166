/** JWT access tokens from an OpenID Connect or OAuth 2.0 identity provider, as a {@code TokenVerifier}. */
package dev.plantstore.oidc;
