/**
 * The plant store without a framework: the records of the Plant Store interface ({@link dev.plantstore.core.Plant},
 * {@link dev.plantstore.core.NewPlant}, {@link dev.plantstore.core.ApiError}), the
 * {@link dev.plantstore.core.PlantStore} that keeps plants, and the {@link dev.plantstore.core.TokenVerifier} that
 * decides who may use it.
 *
 * <p>It also holds the settings: the webhooks' ({@link dev.plantstore.core.Webhooks},
 * {@link dev.plantstore.core.WebhookListener}, {@link dev.plantstore.core.UndeliverableEvents}) and the JDBC store's
 * ({@link dev.plantstore.core.JdbcStoreSettings}). It is the only package the module exports; the implementation
 * beside it ({@code memory}, {@code jdbc}, {@code webhooks}) is hidden.
 *
 * <p>Validation lives in the records' constructors, so an embedder calling a store directly gets exactly the rules an
 * HTTP client gets: an invalid {@code NewPlant} cannot be constructed.
 */
package dev.plantstore.core;
