/**
 * The JDBC store: the group-commit writer and its batches, the SQL of each supported database (the
 * {@link dev.plantstore.core.jdbc.Dialect} chosen once when the store opens), the schema, and the table its events wait
 * in for delivery. Implementation, not exported: an embedder gets it from {@code PlantStores.jdbc(...)}.
 */
package dev.plantstore.core.jdbc;
