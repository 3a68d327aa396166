package dev.plantstore.webhooks;

/** One attempt's request from its headers on, as Standard Webhooks has it: signed anew each time, as it is now. */
record SignedRequest(String id, long timestampSeconds, String signature, byte[] body) {
}
