import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Gives every entry of the jars in a directory the mode 644 (755 if its owner may run it), every directory 755,
 * whatever the build's umask, so a release built under {@code umask 0027} has the bytes of one built under 022.
 * Maven's archivers in reproducible mode fix times, order and owners but keep modes, and no plugin sets them; a zip
 * keeps the mode only in its central directory, so the fix is four bytes per record, nothing repacked. Run by the
 * release build: {@code java ArchiveModes.java DIRECTORY}; a missing directory holds no jar.
 */
final class ArchiveModes {

    private static final int END_SIGNATURE = 0x06054b50;
    private static final int ENTRY_SIGNATURE = 0x02014b50;
    private static final int END_LENGTH = 22;
    private static final int ENTRY_LENGTH = 46;
    private static final int UNIX = 3;
    private static final int PERMISSION_BITS = 07777;
    private static final int OWNER_EXECUTE = 0100;

    private ArchiveModes() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ArchiveModes DIRECTORY");
        }
        Path directory = Path.of(args[0]);
        if (!Files.isDirectory(directory)) {
            return;
        }
        List<Path> jars;
        try (Stream<Path> files = Files.list(directory)) {
            jars = files.filter(file -> file.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
        for (Path jar : jars) {
            byte[] bytes = Files.readAllBytes(jar);
            if (normalize(jar, ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN))) {
                Files.write(jar, bytes);
            }
        }
    }

    /** Sets the modes in the central directory of the zip {@code zip} holds; whether any was changed. */
    private static boolean normalize(Path jar, ByteBuffer zip) {
        int end = endRecord(jar, zip);
        int entries = Short.toUnsignedInt(zip.getShort(end + 10));
        int at = zip.getInt(end + 16);
        boolean changed = false;
        for (int entry = 0; entry < entries; entry++) {
            if (at < 0 || at + ENTRY_LENGTH > end || zip.getInt(at) != ENTRY_SIGNATURE) {
                throw new IllegalStateException(jar + ": central directory record " + entry + " is not where the"
                        + " directory's end says (a zip64 archive, which this does not read?)");
            }
            if (Short.toUnsignedInt(zip.getShort(at + 4)) >>> 8 == UNIX) {
                int attributes = zip.getInt(at + 38);
                int mode = attributes >>> 16;
                // A directory's name ends with a slash; not every archiver writes the type bits.
                boolean directory = zip.get(at + ENTRY_LENGTH + Short.toUnsignedInt(zip.getShort(at + 28)) - 1) == '/';
                int normal = (mode & ~PERMISSION_BITS) | (directory || (mode & OWNER_EXECUTE) != 0 ? 0755 : 0644);
                if (normal != mode) {
                    zip.putInt(at + 38, normal << 16 | attributes & 0xffff);
                    changed = true;
                }
            }
            at += ENTRY_LENGTH + Short.toUnsignedInt(zip.getShort(at + 28))
                    + Short.toUnsignedInt(zip.getShort(at + 30)) + Short.toUnsignedInt(zip.getShort(at + 32));
        }
        return changed;
    }

    /** Where the end of the central directory record starts: the last signature that leaves room for its comment. */
    private static int endRecord(Path jar, ByteBuffer zip) {
        for (int at = zip.limit() - END_LENGTH; at >= 0; at--) {
            if (zip.getInt(at) == END_SIGNATURE
                    && at + END_LENGTH + Short.toUnsignedInt(zip.getShort(at + 20)) == zip.limit()) {
                return at;
            }
        }
        throw new IllegalStateException(jar + " is no zip: it has no end of central directory record");
    }
}
