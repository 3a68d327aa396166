package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** docs/deploy/kubernetes.yaml runs this release's image as the reference page and the image say it must. */
class KubernetesManifestIT {

    private static final Path MANIFEST = ReaderShell.ROOT.resolve("docs/deploy/kubernetes.yaml");

    private static JsonNode deployment;
    private static JsonNode service;

    @BeforeAll
    static void read() throws Exception {
        List<JsonNode> documents = new YAMLMapper().readerFor(JsonNode.class).<JsonNode>readValues(MANIFEST.toFile())
                .readAll();
        assertEquals(List.of("PersistentVolumeClaim", "Deployment", "Service"),
                documents.stream().map(document -> document.path("kind").asText()).toList());
        deployment = documents.get(1);
        service = documents.get(2);
    }

    private static JsonNode container() {
        return deployment.at("/spec/template/spec/containers/0");
    }

    private static int containerPort(String name) {
        for (JsonNode port : container().path("ports")) {
            if (port.path("name").asText().equals(name)) {
                return port.path("containerPort").asInt();
            }
        }
        throw new AssertionError("no container port named " + name);
    }

    @Test
    void theImageIsThisRelease() {
        String image = container().path("image").asText();
        assertTrue(image.endsWith("/plantstore:" + System.getProperty("plantstore.version")), image);
    }

    @Test
    void theProbesAskTheManagementPortAndReadinessFailsWithinTheDrain() {
        assertEquals(9090, containerPort("management"));
        assertEquals(8080, containerPort("api"));
        assertEquals("/health/live", container().at("/livenessProbe/httpGet/path").asText());
        assertEquals("/health/ready", container().at("/readinessProbe/httpGet/path").asText());
        assertEquals("management", container().at("/readinessProbe/httpGet/port").asText());
        int failedAfterSeconds = container().at("/readinessProbe/periodSeconds").asInt()
                * container().at("/readinessProbe/failureThreshold").asInt();
        assertTrue(failedAfterSeconds < 5, "readiness must turn before the 5 s drain ends: " + failedAfterSeconds);
    }

    @Test
    void theStopHasTheTwentySecondsTheReferenceAsksFor() {
        assertEquals(20, deployment.at("/spec/template/spec/terminationGracePeriodSeconds").asInt());
    }

    @Test
    void aReadOnlyRootHasDataAndTmpMountedAsTheImageUser() {
        assertTrue(container().at("/securityContext/readOnlyRootFilesystem").asBoolean());
        List<String> mounts = new ArrayList<>();
        container().path("volumeMounts").forEach(mount -> mounts.add(mount.path("mountPath").asText()));
        assertEquals(List.of("/data", "/tmp"), mounts);
        assertEquals(10001, deployment.at("/spec/template/spec/securityContext/runAsUser").asInt());
    }

    @Test
    void theServiceCarriesTheApiOnly() {
        assertEquals(1, service.at("/spec/ports").size());
        assertEquals("api", service.at("/spec/ports/0/targetPort").asText());
    }
}
