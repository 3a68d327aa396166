package dev.plantstore.core.memory;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Numbers the tags plants share, so that a stored plant refers to its tag by a small number instead of holding its
 * own copy of the text: a store typically sees a handful of distinct tags across millions of plants. Bounded both
 * ways: at most {@code capacity} tags of at most {@link #MAX_SHARED_LENGTH} characters are numbered, and a tag
 * outside the table is simply stored with its plant. A number, once given, is never reused or taken back, so a plant
 * holding it always reads back the same tag. Thread-safe; looking up a numbered tag takes no lock.
 */
final class SharedTags {

    /** What {@link #numberOf} answers for a tag that is not shared. */
    static final int NOT_SHARED = -1;

    /** Longer tags are not shared: they are rarely repeated, and the table's memory stays small whatever arrives. */
    static final int MAX_SHARED_LENGTH = 64;

    private final ConcurrentHashMap<String, Integer> numbers = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<String> tags;
    private int count;

    SharedTags(int capacity) {
        this.tags = new AtomicReferenceArray<>(capacity);
    }

    /** The tag's number, giving it the next one if there is room; {@link #NOT_SHARED} otherwise. */
    int numberOf(String tag) {
        Integer number = numbers.get(tag);
        if (number != null) {
            return number;
        }
        if (tag.length() > MAX_SHARED_LENGTH) {
            return NOT_SHARED;
        }
        synchronized (this) {
            number = numbers.get(tag);
            if (number != null) {
                return number;
            }
            if (count == tags.length()) {
                return NOT_SHARED;
            }
            // Published in this order, so that whoever sees the number also sees the tag behind it.
            tags.set(count, tag);
            numbers.put(tag, count);
            return count++;
        }
    }

    /** The tag numbered {@code number} by {@link #numberOf}. */
    String tag(int number) {
        return tags.get(number);
    }
}
