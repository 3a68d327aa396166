/**
 * The base of a store that wraps another, for the HTTP module's metrics and traces; exported to it alone, not part of
 * the library's interface.
 */
package dev.plantstore.core.forwarding;
