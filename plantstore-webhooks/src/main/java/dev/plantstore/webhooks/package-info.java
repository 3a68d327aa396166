/**
 * Webhook delivery: sends the plant events that a store records in its outbox to their receivers over HTTP, signed as
 * Standard Webhooks, at least once. A store given {@code Webhooks} finds {@link HttpDeliveryProvider} as a service and
 * starts it; nothing here is called directly. How an event goes out is told, in order, by the class
 * {@code WebhookDelivery}.
 */
package dev.plantstore.webhooks;
