/**
 * The Plant Store HTTP API on Javalin. Five types are public: {@link dev.plantstore.http.PlantStoreApi} mounts the
 * API onto a Javalin configuration you own, {@link dev.plantstore.http.PlantStoreServer} runs it as a standalone
 * server, with the {@link dev.plantstore.http.ClientLimits} it puts on client connections (which
 * {@code PlantStoreApi.mount(config, limits)} can put on yours), and {@link dev.plantstore.http.Health} and
 * {@link dev.plantstore.http.ManagementPort} serve an operations port of your own. Everything else here is
 * package-private; the package-private {@code Pipeline} lists, in order, everything a request passes through and who
 * gets each step.
 */
package dev.plantstore.http;
