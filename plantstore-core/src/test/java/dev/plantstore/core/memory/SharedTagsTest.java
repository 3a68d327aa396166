package dev.plantstore.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class SharedTagsTest {

    @Test
    void oneTagGetsOneNumberThatLeadsBackToIt() {
        var tags = new SharedTags(4);
        int fern = tags.numberOf("fern");
        int palm = tags.numberOf("palm");
        assertNotEquals(fern, palm);
        assertEquals(fern, tags.numberOf(new String("fern".toCharArray())));
        assertEquals("fern", tags.tag(fern));
        assertEquals("palm", tags.tag(palm));
    }

    @Test
    void noMoreTagsThanTheCapacityAreNumbered() {
        var tags = new SharedTags(2);
        tags.numberOf("a");
        tags.numberOf("b");
        assertEquals(SharedTags.NOT_SHARED, tags.numberOf("c"));
        assertEquals(0, tags.numberOf("a"));
    }

    @Test
    void aLongTagIsNeverNumbered() {
        var tags = new SharedTags(4);
        assertEquals(SharedTags.NOT_SHARED, tags.numberOf("x".repeat(SharedTags.MAX_SHARED_LENGTH + 1)));
        assertEquals(0, tags.numberOf("x".repeat(SharedTags.MAX_SHARED_LENGTH)));
    }

    @Test
    void threadsNumberingTheSameTagsAtOnceAgree() throws Exception {
        var tags = new SharedTags(64);
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        var start = new CountDownLatch(1);
        Set<String> answers = ConcurrentHashMap.newKeySet();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 32; i++) {
                        String tag = "tag-" + i;
                        int number = tags.numberOf(tag);
                        answers.add(tag + "=" + number);
                        assertEquals(tag, tags.tag(number));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(32, answers.size(), "each tag got exactly one number: " + answers);
    }
}
