/**
 * The Plant Store HTTP API on Javalin. Seven types are public: {@link dev.plantstore.http.PlantStoreApi} mounts the
 * API onto a Javalin configuration you own, {@link dev.plantstore.http.PlantStoreServer} runs it as a standalone
 * server, with the {@link dev.plantstore.http.ClientLimits} it puts on client connections (which
 * {@code PlantStoreApi.mount(config, limits)} can put on yours), {@link dev.plantstore.http.TlsConnector} serves it
 * over TLS, {@link dev.plantstore.http.Health} and {@link dev.plantstore.http.ManagementPort} serve an operations port
 * of your own, and {@link dev.plantstore.http.LogFields} names what a request's log lines carry. Everything else is
 * package-private; docs/request-path.md lists everything a request passes through.
 */
package dev.plantstore.http;
