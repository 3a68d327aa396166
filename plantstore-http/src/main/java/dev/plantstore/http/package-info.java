/**
 * The Plant Store HTTP API on Javalin. Two types are public: {@link dev.plantstore.http.PlantStoreApi} mounts the
 * API onto a Javalin configuration you own, and {@link dev.plantstore.http.PlantStoreServer} runs it as a standalone
 * server. Everything else here is package-private.
 */
package dev.plantstore.http;
