package dev.plantstore.core.memory;

import dev.plantstore.core.Plant;
import java.nio.charset.StandardCharsets;

/**
 * A plant packed into one byte array, which is how the in-memory store keeps it: a {@link Plant} record with its two
 * strings costs about 100 bytes of heap for a 10-character name, the array about 32. The layout starts with an
 * unsigned variable-length number (seven bits a byte, low bits first) that says where the tag is:
 * <ul>
 *   <li>{@code 0}: no tag; the name's UTF-8 bytes follow.</li>
 *   <li>{@code 1}: a tag of its own; the name's length in UTF-8 bytes follows as another such number, then the name's
 *       bytes, then the tag's.</li>
 *   <li>{@code 2 + n}: shared tag number {@code n} of {@link SharedTags}; the name's UTF-8 bytes follow.</li>
 * </ul>
 * UTF-8 round-trips every plant exactly, because a valid {@link Plant} holds no unpaired surrogate.
 */
final class PackedPlant {

    private static final int NO_TAG = 0;
    private static final int OWN_TAG = 1;
    private static final int FIRST_SHARED_TAG = 2;

    private PackedPlant() {
    }

    static byte[] pack(Plant plant, SharedTags sharedTags) {
        byte[] name = plant.name().getBytes(StandardCharsets.UTF_8);
        String tag = plant.tag();
        if (tag == null) {
            return withHeader(NO_TAG, name);
        }
        int shared = sharedTags.numberOf(tag);
        if (shared != SharedTags.NOT_SHARED) {
            return withHeader(FIRST_SHARED_TAG + shared, name);
        }
        byte[] tagBytes = tag.getBytes(StandardCharsets.UTF_8);
        byte[] packed = new byte[1 + varIntLength(name.length) + name.length + tagBytes.length];
        int position = writeVarInt(packed, 0, OWN_TAG);
        position = writeVarInt(packed, position, name.length);
        System.arraycopy(name, 0, packed, position, name.length);
        System.arraycopy(tagBytes, 0, packed, position + name.length, tagBytes.length);
        return packed;
    }

    static Plant unpack(byte[] packed, SharedTags sharedTags) {
        int header = readVarInt(packed, 0);
        int position = varIntLength(header);
        if (header == OWN_TAG) {
            int nameLength = readVarInt(packed, position);
            position += varIntLength(nameLength);
            return new Plant(utf8(packed, position, position + nameLength),
                    utf8(packed, position + nameLength, packed.length));
        }
        String tag = header == NO_TAG ? null : sharedTags.tag(header - FIRST_SHARED_TAG);
        return new Plant(utf8(packed, position, packed.length), tag);
    }

    private static byte[] withHeader(int header, byte[] name) {
        int headerLength = varIntLength(header);
        byte[] packed = new byte[headerLength + name.length];
        writeVarInt(packed, 0, header);
        System.arraycopy(name, 0, packed, headerLength, name.length);
        return packed;
    }

    private static String utf8(byte[] bytes, int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }

    static int varIntLength(int value) {
        int length = 1;
        while ((value >>>= 7) != 0) {
            length++;
        }
        return length;
    }

    /** Writes {@code value} at {@code position}; returns the position after it. */
    static int writeVarInt(byte[] bytes, int position, int value) {
        while ((value & ~0x7F) != 0) {
            bytes[position++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[position++] = (byte) value;
        return position;
    }

    static int readVarInt(byte[] bytes, int position) {
        int value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = bytes[position++];
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
    }
}
