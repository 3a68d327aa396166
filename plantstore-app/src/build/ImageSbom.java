import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The container image's SBOM: the CycloneDX document the plugin wrote for the server's libraries (the image's
 * /app/libs and classes), with the base image added as a component of its own, named by its reference and, for a base
 * taken from an archive (tar://PATH, as PLANTSTORE_IMAGE_BASE names it), by its image id read from the archive's
 * manifest.json. It names the base, not what is inside it (its Debian or Ubuntu packages, the JRE).
 *
 * <p>Run by the build as a single-file program: {@code java -cp CLASSPATH ImageSbom.java LIBRARIES_SBOM BASE OUTPUT}.
 */
final class ImageSbom {

    private static final String BASE_REF = "base-image";
    private static final String ARCHIVE = "tar://";
    private static final int BLOCK = 512;

    private ImageSbom() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: ImageSbom LIBRARIES_SBOM BASE_IMAGE OUTPUT");
        }
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode sbom = (ObjectNode) json.readTree(Path.of(args[0]).toFile());
        String base = args[1];
        ObjectNode component = json.createObjectNode();
        component.put("type", "container");
        component.put("bom-ref", BASE_REF);
        if (base.startsWith(ARCHIVE)) {
            Path archive = Path.of(base.substring(ARCHIVE.length()));
            component.put("name", archive.getFileName().toString());
            component.put("version", imageId(json, archive));
            component.put("description", "the base image, from a docker-archive; version is its image id");
        } else {
            int at = base.indexOf('@');
            component.put("name", at < 0 ? base : base.substring(0, at));
            if (at >= 0) {
                component.put("version", base.substring(at + 1));
            }
            component.put("description", "the base image, from a registry");
        }
        ArrayNode components = sbom.withArray("components");
        components.insert(0, component);
        String image = sbom.path("metadata").path("component").path("bom-ref").asText();
        for (JsonNode dependency : sbom.withArray("dependencies")) {
            if (dependency.path("ref").asText().equals(image)) {
                ((ObjectNode) dependency).withArray("dependsOn").insert(0, BASE_REF);
            }
        }
        Files.writeString(Path.of(args[2]), json.writeValueAsString(sbom) + "\n", StandardCharsets.UTF_8);
    }

    /** The id (the digest of its configuration) of the image a docker-archive holds, from its manifest.json. */
    private static String imageId(ObjectMapper json, Path archive) throws IOException {
        try (InputStream in = Files.newInputStream(archive)) {
            byte[] header = new byte[BLOCK];
            while (in.readNBytes(header, 0, BLOCK) == BLOCK && header[0] != 0) {
                String name = new String(header, 0, 100, StandardCharsets.US_ASCII).replaceFirst("\0.*", "");
                long size = Long.parseLong(new String(header, 124, 12, StandardCharsets.US_ASCII)
                        .replaceAll("[\0 ]", ""), 8);
                if (name.equals("manifest.json")) {
                    String config = json.readTree(in.readNBytes((int) size)).path(0).path("Config").asText();
                    String digest = config.substring(config.lastIndexOf('/') + 1).replaceFirst("\\.json$", "");
                    return "sha256:" + digest;
                }
                in.skipNBytes((size + BLOCK - 1) / BLOCK * BLOCK);
            }
        }
        throw new IOException(archive + " is no docker-archive: it has no manifest.json");
    }
}
