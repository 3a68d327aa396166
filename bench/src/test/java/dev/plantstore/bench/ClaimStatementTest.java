package dev.plantstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClaimStatementTest {

    @Test
    void placeholdersAreNumberedInOrder() {
        assertEquals("UPDATE t SET a = $1 WHERE b = $2 LIMIT $3", ClaimStatement.numbered(
                "UPDATE t SET a = ? WHERE b = ? LIMIT ?"));
    }

    @Test
    void theOutboxClaimIsReadWithItsSixParameters() throws Exception {
        String claim = ClaimStatement.numbered(ClaimStatement.postgresClaim());
        assertTrue(claim.startsWith("UPDATE webhook_outbox SET leased_until = $1 "), claim);
        assertTrue(claim.contains("LIMIT $6"), claim);
        assertFalse(claim.contains("?") || claim.contains("$7"), claim);
    }
}
