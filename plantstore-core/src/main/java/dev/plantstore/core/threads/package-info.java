/** Threads as the project's modules make them; not exported but to those modules. */
package dev.plantstore.core.threads;
