package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The API's lines are under its public type's name, which an embedder's logging configuration names. */
class ApiLogTest {

    @Test
    void theApisLoggerIsNamedAfterItsPublicType() {
        assertEquals(PlantStoreApi.class.getName(), ApiLog.LOG.getName());
    }
}
