package dev.plantstore.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.sqlite.SQLiteJDBCLoader;

/**
 * Loads SQLite's native library so that no file of it is left in the temporary folder. The driver unpacks the library
 * into {@code java.io.tmpdir} (or {@code org.sqlite.tmpdir}) and deletes it on exit, which a server's stop never
 * reaches, as it ends with {@code Runtime.halt}: every stopped server left 1.1 MB there. Here the library is unpacked
 * into a folder of its own and loaded, and the folder deleted at once: a loaded library needs its file no more (Linux
 * and macOS keep it mapped), so even a process killed outright leaves nothing. An operator who names the library
 * ({@code org.sqlite.lib.path}) or the driver's folder ({@code org.sqlite.tmpdir}) keeps the driver's own way.
 */
final class SqliteNativeLibrary {

    private static final String LIBRARY_PATH = "org.sqlite.lib.path";
    private static final String UNPACK_FOLDER = "org.sqlite.tmpdir";

    private SqliteNativeLibrary() {
    }

    /** Loads the library, if not loaded yet; where that fails, the first connection fails with the driver's reason. */
    static void load() {
        if (System.getProperty(LIBRARY_PATH) != null || System.getProperty(UNPACK_FOLDER) != null) {
            return;
        }
        Path folder;
        try {
            folder = Files.createTempDirectory("plantstore-sqlite-");
        } catch (IOException e) {
            // The driver then unpacks into the temporary folder itself, or says why it cannot.
            return;
        }
        System.setProperty(UNPACK_FOLDER, folder.toString());
        try {
            SQLiteJDBCLoader.initialize();
        } catch (Exception e) {
            // The first connection loads it again, in the driver's own way, and fails with the driver's message.
        } finally {
            System.clearProperty(UNPACK_FOLDER);
            delete(folder);
        }
    }

    /** Deletes the folder and what the driver put in it; a file a system keeps while loaded is left to the driver. */
    private static void delete(Path folder) {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            files = walk.sorted(Comparator.reverseOrder()).toList();
        } catch (IOException e) {
            return;
        }
        for (Path file : files) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // Windows keeps a loaded library's file: the driver deletes it when the process exits normally.
            }
        }
    }
}
