/**
 * The standalone server: reads options from flags and the environment, loads or generates tokens, starts a
 * {@link dev.plantstore.http.PlantStoreServer} and stops it gracefully on SIGTERM. Nothing here is API.
 */
package dev.plantstore.app;
