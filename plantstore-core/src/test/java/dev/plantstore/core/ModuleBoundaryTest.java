package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module's boundary: the packages beside the interface hold public types only so that the interface and the other
 * packages can reach them, and the module declaration keeps them from everyone else. The tests run on the class path,
 * so the declaration is read from the compiled classes.
 */
class ModuleBoundaryTest {

    @Test
    void theModuleOpensNothing() throws Exception {
        assertEquals(Set.of(), descriptor().opens());
    }

    @Test
    void theModuleExportsTheInterfacePackageToAllAndEachRoomOnlyToTheModuleThatBuildsOnIt() throws Exception {
        assertEquals(Set.of("dev.plantstore.core -> all",
                        "dev.plantstore.core.webhooks -> [dev.plantstore.kafka, dev.plantstore.webhooks]",
                        "dev.plantstore.core.threads -> [dev.plantstore.kafka, dev.plantstore.oidc, "
                                + "dev.plantstore.webhooks]",
                        "dev.plantstore.core.forwarding -> [dev.plantstore.http]"),
                descriptor().exports().stream()
                        .map(export -> export.source() + " -> "
                                + (export.isQualified() ? new TreeSet<>(export.targets()) : "all"))
                        .collect(Collectors.toSet()));
    }

    /** The declaration beside the compiled classes, not the first {@code module-info.class} the loader finds. */
    private static ModuleDescriptor descriptor() throws Exception {
        Path classes = Path.of(PlantStore.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }
}
