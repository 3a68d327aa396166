/**
 * The Kafka sink: {@link dev.plantstore.kafka.KafkaSink} says where a store's plant events go, and the delivery this
 * module provides, found by the store as a service, sends them there through Apache Kafka's own producer, as
 * CloudEvents 1.0 in binary content mode. docs/kafka.md tells what a consumer gets and what is promised.
 */
package dev.plantstore.kafka;
