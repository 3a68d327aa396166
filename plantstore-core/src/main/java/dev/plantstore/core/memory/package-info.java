/**
 * The in-memory store: plants packed into a compact table with shared tags, and the outbox its events wait in for
 * delivery. Implementation, not exported: an embedder gets it from {@code PlantStores.inMemory()}.
 */
package dev.plantstore.core.memory;
