/**
 * The plant store without a framework. Only {@code dev.plantstore.core} is the library's interface; the stores'
 * rooms ({@code memory}, {@code jdbc}, {@code webhooks}) hold its implementation and are not exported, but for the
 * outbox's contract, which the modules that send the events (webhooks, Kafka) implement delivery on, the project's
 * background threads, which those modules and the identity provider's use too, and the base of the stores that wrap another ({@code forwarding}), which the HTTP module's metrics and traces extend.
 */
module dev.plantstore.core {
    requires transitive java.sql;

    exports dev.plantstore.core;
    exports dev.plantstore.core.forwarding to dev.plantstore.http;
    exports dev.plantstore.core.webhooks to dev.plantstore.webhooks, dev.plantstore.kafka;
    exports dev.plantstore.core.threads to dev.plantstore.webhooks, dev.plantstore.kafka, dev.plantstore.oidc;

    uses dev.plantstore.core.webhooks.DeliveryProvider;
}
