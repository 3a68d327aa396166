package dev.plantstore.app;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A file of secrets (tokens, webhook secret and signing key, Kafka client config, TLS key and its password), read only
 * if it is a regular file of at most {@link #MAX_BYTES} that no other user can read or change; a public file (a TLS
 * certificate) only if it is such a regular file. All is checked from attributes ({@code lstat}) before opening: a
 * FIFO would block for ever, a device never end. Checked: each symbolic link on the way (owned by this user or root),
 * the file (so owned, owner-only mode), and each one's real directory (so owned, writable by no other user unless
 * sticky, as {@code /tmp} and Kubernetes' secret volumes). {@link Privacy} says which checks a file gets.
 */
final class PrivateFile {

    /** The most a file of secrets may hold: 1 MiB, room for thousands of tokens. */
    static final int MAX_BYTES = 1 << 20;

    /** As many symbolic links as Linux follows in one path before it gives up (ELOOP). */
    private static final int MAX_LINKS = 40;
    private static final int FILE_TYPE_BITS = 0170000;
    private static final int STICKY_BIT = 01000;
    /** Read or write for group or others. */
    private static final int SHARED_BITS = 0066;
    /** Write for group, read or write for others. */
    private static final int SHARED_BEYOND_GROUP_READ_BITS = 0026;
    /** Write for group or others. */
    private static final int WRITABLE_BY_OTHERS_BITS = 0022;

    private PrivateFile() {
    }

    /** What a file must keep from other users. */
    enum Privacy {
        /** The checks above: the tokens file, a webhook secret file. */
        OWNER_ONLY,
        /**
         * A private key, its password or the Kafka client config: as {@link #OWNER_ONLY}, except that a file root
         * owns may be readable by its group, as PostgreSQL allows of its key file: root chose the group, as
         * Kubernetes does for a secret volume mounted with {@code fsGroup} and {@code defaultMode: 0440}.
         */
        KEY,
        /** A certificate, which anyone may read: only that it is a regular file of at most {@link #MAX_BYTES}. */
        PUBLIC
    }

    /**
     * One path as it is on disk, the last name not followed; {@code owner} and {@code mode} (with its type and sticky
     * bits) are empty where the file system has no such thing.
     */
    record Entry(Path path, Object fileKey, long modifiedMillis, long size, boolean regularFile, boolean directory,
                 boolean symbolicLink, OptionalInt owner, OptionalInt mode) {

        static Entry of(Path path) throws IOException {
            var basic = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            OptionalInt owner = OptionalInt.empty();
            OptionalInt mode = OptionalInt.empty();
            try {
                Map<String, Object> unix = Files.readAttributes(path, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
                owner = OptionalInt.of((Integer) unix.get("uid"));
                mode = OptionalInt.of((Integer) unix.get("mode"));
            } catch (UnsupportedOperationException e) {
                // No owner or mode to check here: the other checks still apply.
            }
            return new Entry(path, basic.fileKey(), basic.lastModifiedTime().toMillis(), basic.size(),
                    basic.isRegularFile(), basic.isDirectory(), basic.isSymbolicLink(), owner, mode);
        }

        /** Whether its mode has any of {@code bits}; false where there is no mode. */
        boolean hasAny(int bits) {
            return mode.isPresent() && (mode.getAsInt() & bits) != 0;
        }

        /** Its permissions as ls shows them: {@code rw-r--r--}. */
        String permissionString() {
            int bits = mode.orElseThrow();
            var text = new StringBuilder(9);
            for (int shift = 6; shift >= 0; shift -= 3) {
                text.append((bits >> shift & 4) != 0 ? 'r' : '-').append((bits >> shift & 2) != 0 ? 'w' : '-')
                        .append((bits >> shift & 1) != 0 ? 'x' : '-');
            }
            return text.toString();
        }

        /** What it is when it is not a regular file, in the words of ls and stat. */
        String kind() {
            if (directory) {
                return "a directory";
            }
            return switch (mode.orElse(0) & FILE_TYPE_BITS) {
                case 0010000 -> "a FIFO";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0140000 -> "a socket";
                default -> "not a regular file";
            };
        }
    }

    /** Every path a read looks at: the links on the way, the file they lead to, and the directories holding them. */
    private record Resolved(List<Entry> links, Entry file, List<Entry> directories) {

        static Resolved of(Path named) throws IOException {
            List<Entry> links = new ArrayList<>();
            Set<Path> directories = new LinkedHashSet<>();
            Path path = named.toAbsolutePath();
            Entry entry = Entry.of(path);
            while (entry.symbolicLink()) {
                if (links.size() == MAX_LINKS) {
                    throw new IOException("more than " + MAX_LINKS + " symbolic links on the way");
                }
                links.add(entry);
                directories.add(path.getParent().toRealPath());
                path = path.getParent().resolve(Files.readSymbolicLink(path));
                entry = Entry.of(path);
            }
            Path real = path.toRealPath();
            Entry file = Entry.of(real);
            if (real.getParent() != null) {
                directories.add(real.getParent());
            }
            List<Entry> directoryEntries = new ArrayList<>();
            for (Path directory : directories) {
                directoryEntries.add(Entry.of(directory));
            }
            return new Resolved(List.copyOf(links), file, List.copyOf(directoryEntries));
        }
    }

    /**
     * What one look at the file sees: the links on the way and the file as they are now, what the checks see of their
     * directories (not their modification times, which change whenever a file beside them comes or goes), and a
     * digest of the contents when the checks pass; nothing else is opened. Two looks are equal while none of it
     * changes.
     */
    record Look(List<Entry> paths, List<Directory> directories, Optional<ByteBuffer> contents) {
    }

    /** A directory as the checks see it. */
    record Directory(Path path, Object fileKey, OptionalInt owner, OptionalInt mode) {
    }

    /** A look at {@code file}, a file of secrets; empty when it or a link on the way cannot be found or read. */
    static Optional<Look> look(Path file) {
        return look(file, Privacy.OWNER_ONLY);
    }

    /** A look at {@code file}, checked as {@code privacy} says; empty when it or a link on the way cannot be found. */
    static Optional<Look> look(Path file, Privacy privacy) {
        Resolved resolved;
        try {
            resolved = Resolved.of(file);
        } catch (IOException e) {
            return Optional.empty();
        }
        List<Entry> paths = new ArrayList<>(resolved.links());
        paths.add(resolved.file());
        List<Directory> directories = resolved.directories().stream()
                .map(entry -> new Directory(entry.path(), entry.fileKey(), entry.owner(), entry.mode())).toList();
        Optional<ByteBuffer> contents;
        try {
            check("", file, resolved, privacy);
            // Only the server's user or root may now put a FIFO in the file's place before it is opened.
            contents = digest(resolved.file().path());
        } catch (UsageException refused) {
            // Its attributes tell when it changes; a read refuses it, and says why.
            contents = Optional.empty();
        }
        return Optional.of(new Look(List.copyOf(paths), directories, contents));
    }

    /** SHA-256 of at most {@link #MAX_BYTES} + 1 bytes of {@code file}, read in blocks; empty if it cannot be read. */
    private static Optional<ByteBuffer> digest(Path file) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
        byte[] block = new byte[8192];
        long left = MAX_BYTES + 1L;
        try (InputStream in = Files.newInputStream(file)) {
            int read;
            while (left > 0 && (read = in.read(block, 0, (int) Math.min(block.length, left))) >= 0) {
                digest.update(block, 0, read);
                left -= read;
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.of(ByteBuffer.wrap(digest.digest()));
    }

    /**
     * The file's text, once every check of this class passes; {@code what} names the file in messages ("tokens
     * file").
     *
     * @throws UsageException naming what is wrong, and with which path, in one line that never quotes the contents
     */
    static String readText(Path file, String what) throws UsageException {
        return readText(file, what, Privacy.OWNER_ONLY);
    }

    /** As {@link #readText(Path, String)}, with the checks {@code privacy} says. */
    static String readText(Path file, String what, Privacy privacy) throws UsageException {
        byte[] bytes = read(file, what, privacy);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new UsageException(what + " " + file + " is not UTF-8 text");
        }
    }

    /**
     * The file's bytes, once the checks {@code privacy} says pass; {@code what} names the file in messages.
     *
     * @throws UsageException naming what is wrong, and with which path, in one line that never quotes the contents
     */
    static byte[] read(Path file, String what, Privacy privacy) throws UsageException {
        String name = what + " " + file;
        Resolved resolved;
        try {
            resolved = Resolved.of(file);
        } catch (NoSuchFileException e) {
            throw new UsageException(name + " does not exist");
        } catch (IOException e) {
            throw new UsageException(name + " cannot be read: " + e.getMessage());
        }
        check(name, file, resolved, privacy);
        byte[] bytes;
        try (InputStream in = Files.newInputStream(resolved.file().path())) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new UsageException(name + " cannot be read: " + e.getMessage());
        }
        if (bytes.length > MAX_BYTES) {
            throw new UsageException(name + " is larger than 1 MiB");
        }
        return bytes;
    }

    private static void check(String name, Path named, Resolved resolved, Privacy privacy) throws UsageException {
        boolean secret = privacy != Privacy.PUBLIC;
        if (secret) {
            for (Entry link : resolved.links()) {
                Path shown = shown(link, named);
                requireOwned(name + ": symbolic link " + shown, link, "chown -h", shown);
            }
            for (Entry directory : resolved.directories()) {
                String subject = name + ": directory " + directory.path();
                if (directory.hasAny(WRITABLE_BY_OTHERS_BITS) && !directory.hasAny(STICKY_BIT)) {
                    throw new UsageException(subject + " lets other users replace the file ("
                            + directory.permissionString() + "); make it private with: chmod go-w " + directory.path());
                }
                requireOwned(subject, directory, "chown", directory.path());
            }
        }
        Entry file = resolved.file();
        Path shown = resolved.links().isEmpty() ? shown(file, named) : file.path();
        String subject = shown.equals(named) ? name : name + ": its target " + shown;
        if (!file.regularFile()) {
            String kind = file.kind();
            throw new UsageException(subject + " is " + kind + (kind.startsWith("not") ? "" : ", not a regular file"));
        }
        if (secret) {
            boolean groupMayRead = privacy == Privacy.KEY && file.owner().equals(OptionalInt.of(0));
            if (file.hasAny(groupMayRead ? SHARED_BEYOND_GROUP_READ_BITS : SHARED_BITS)) {
                throw new UsageException(subject + " is open to other users (" + file.permissionString()
                        + "); make it private with: chmod 600 " + shown);
            }
            requireOwned(subject, file, "chown", shown);
        }
        if (file.size() > MAX_BYTES) {
            throw new UsageException(subject + " is larger than 1 MiB (" + file.size() + " bytes)");
        }
    }

    /** The path as the user named it, where it is that one, so that a message quotes it as given. */
    private static Path shown(Entry entry, Path named) {
        Path absolute = named.toAbsolutePath();
        return entry.path().equals(absolute) || entry.path().equals(absolute.normalize()) ? named : entry.path();
    }

    /**
     * Owned by the user this server runs as, or by root: a path another user owns is one that user can change, or
     * open to others, at any time.
     */
    private static void requireOwned(String subject, Entry entry, String chown, Path shown) throws UsageException {
        if (entry.owner().isEmpty()) {
            return;
        }
        long self = new UnixSystem().getUid();
        int owner = entry.owner().getAsInt();
        if (owner != self && owner != 0) {
            throw new UsageException(subject + " is owned by user " + owner + ", not by the user this server runs as ("
                    + self + ") or root; make it this server's with: " + chown + " " + self + " " + shown);
        }
    }
}
