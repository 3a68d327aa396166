/**
 * Webhook delivery: sends the plant events that a store records in its outbox to their receivers over HTTP, signed as
 * Standard Webhooks, at least once. A store given {@code Webhooks} starts it; start with {@link WebhookDelivery}.
 */
package dev.plantstore.webhooks;
