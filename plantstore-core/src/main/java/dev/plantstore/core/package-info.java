/**
 * The plant store without a framework: the records of the Plant Store interface ({@link dev.plantstore.core.Plant},
 * {@link dev.plantstore.core.NewPlant}, {@link dev.plantstore.core.ApiError}), the
 * {@link dev.plantstore.core.PlantStore} that keeps plants, and the {@link dev.plantstore.core.TokenVerifier} that
 * decides who may use it.
 *
 * <p>Validation lives in the records' constructors, so an embedder calling a store directly gets exactly the rules an
 * HTTP client gets: an invalid {@code NewPlant} cannot be constructed.
 */
package dev.plantstore.core;
