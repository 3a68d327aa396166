package dev.plantstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void anOddCountHasItsMiddleValueAsMedian() {
        assertEquals(new Spread(1, 5, 9), Spread.of(List.of(9.0, 1.0, 5.0)));
    }

    @Test
    void anEvenCountHasTheMeanOfItsTwoMiddleValuesAsMedian() {
        assertEquals(new Spread(1, 3, 10), Spread.of(List.of(10.0, 2.0, 4.0, 1.0)));
    }

    @Test
    void noValuesHaveNoSpread() {
        assertThrows(IllegalArgumentException.class, () -> Spread.of(List.of()));
    }

    @Test
    void formatsMinMedianMax() {
        assertEquals("1.0 / 2.5 / 4.0", new Spread(1, 2.5, 4).format("%.1f"));
    }
}
