/**
 * The plant store without a framework. Only {@code dev.plantstore.core} is the library's interface; the stores'
 * rooms ({@code memory}, {@code jdbc}, {@code webhooks}) hold its implementation and are not exported.
 */
module dev.plantstore.core {
    requires transitive java.sql;

    exports dev.plantstore.core;
}
