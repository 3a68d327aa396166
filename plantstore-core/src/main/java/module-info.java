/**
 * The plant store without a framework. Only {@code dev.plantstore.core} is the library's interface; the packages
 * {@code memory}, {@code jdbc} and {@code webhooks} hold its implementation and are not exported, but to the modules
 * that need them: the outbox's contract to those that send events (webhooks, Kafka), the background threads to those
 * and the identity provider's, and the base of wrapping stores ({@code forwarding}) to the HTTP module's metrics and
 * traces.
 */
module dev.plantstore.core {
    requires transitive java.sql;

    exports dev.plantstore.core;
    exports dev.plantstore.core.forwarding to dev.plantstore.http;
    exports dev.plantstore.core.webhooks to dev.plantstore.webhooks, dev.plantstore.kafka;
    exports dev.plantstore.core.threads to dev.plantstore.webhooks, dev.plantstore.kafka, dev.plantstore.oidc;

    uses dev.plantstore.core.webhooks.DeliveryProvider;
}
