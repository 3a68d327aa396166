/**
 * Webhooks as the stores see them: the outbox both stores record their events in, where they publish the events they
 * committed, the settings a delivery works from, and the service through which a store starts the delivery that the
 * module {@code plantstore-webhooks} provides.
 * Implementation, not exported but to that module: an embedder configures webhooks with {@code Webhooks} and hands
 * that to a store.
 */
package dev.plantstore.core.webhooks;
