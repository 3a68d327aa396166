package dev.plantstore.http;

import java.util.List;
import java.util.stream.Stream;

/**
 * A library this module declares optional: an application has it only if it adds it, and the feature that needs it
 * asks for it at start, so that a missing one is named then rather than failing a request later.
 *
 * @param coordinates what an application adds to its dependencies, {@code groupId:artifactId}
 * @param probe a resource the library's jar holds, looked for without loading any class of it
 */
record OptionalLibrary(String coordinates, String probe) {

    static final OptionalLibrary SWAGGER_UI = new OptionalLibrary("org.webjars:swagger-ui",
            "META-INF/maven/org.webjars/swagger-ui/pom.properties");
    static final OptionalLibrary JACKSON_YAML = new OptionalLibrary(
            "com.fasterxml.jackson.dataformat:jackson-dataformat-yaml",
            "com/fasterxml/jackson/dataformat/yaml/YAMLMapper.class");
    static final OptionalLibrary JACKSON_DATABIND = new OptionalLibrary("com.fasterxml.jackson.core:jackson-databind",
            "com/fasterxml/jackson/databind/ObjectMapper.class");

    static final OptionalLibrary JETTY_ALPN = new OptionalLibrary("org.eclipse.jetty:jetty-alpn-java-server",
            "org/eclipse/jetty/alpn/java/server/JDK9ServerALPNProcessor.class");
    static final OptionalLibrary JETTY_HTTP2 = new OptionalLibrary("org.eclipse.jetty.http2:jetty-http2-server",
            "org/eclipse/jetty/http2/server/HTTP2ServerConnectionFactory.class");

    /** Where the libraries are looked for: this module's own class loader, which loads them when present. */
    static final ClassLoader CLASS_PATH = OptionalLibrary.class.getClassLoader();

    boolean isPresentIn(ClassLoader loader) {
        return loader.getResource(probe) != null;
    }

    /** The coordinates of each library of {@code needed} that {@code loader} lacks, in their order. */
    static List<String> missing(ClassLoader loader, OptionalLibrary... needed) {
        return Stream.of(needed).filter(library -> !library.isPresentIn(loader)).map(OptionalLibrary::coordinates)
                .toList();
    }

    /**
     * Fails, naming every library of {@code needed} that {@code loader} lacks, what {@code feature} needs and how to
     * do without.
     *
     * @throws IllegalStateException when one is missing
     */
    static void require(ClassLoader loader, String feature, String withoutIt, OptionalLibrary... needed) {
        List<String> missing = missing(loader, needed);
        if (!missing.isEmpty()) {
            throw new IllegalStateException(feature + " needs " + String.join(" and ", missing)
                    + " on the class path, which plantstore-http declares optional: add "
                    + (missing.size() == 1 ? "it" : "them") + " to your dependencies, or " + withoutIt);
        }
    }
}
