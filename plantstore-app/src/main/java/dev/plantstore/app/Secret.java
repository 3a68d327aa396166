package dev.plantstore.app;

import java.util.Map;
import java.util.Optional;

/** A value read only from the environment. */
record Secret(String variable, String help) {

    Optional<String> in(Map<String, String> env) {
        return Optional.ofNullable(env.get(variable));
    }
}
