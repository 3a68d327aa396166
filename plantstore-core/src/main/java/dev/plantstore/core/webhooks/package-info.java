/**
 * Webhooks: the outbox contract both stores record their events in, the delivery that sends them to each receiver
 * over its own connections, and the Standard Webhooks body and signature. Implementation, not exported: an embedder
 * configures it with {@code Webhooks} and hands that to a store.
 */
package dev.plantstore.core.webhooks;
