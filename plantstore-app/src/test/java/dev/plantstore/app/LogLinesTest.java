package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The server's log lines, text and JSON, through SLF4J as the libraries write them. */
class LogLinesTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private String logged(LogLines.Format format, Runnable logging) {
        LogLines.use(new LogLines(out, format, new LogLines.Timestamps(ZoneOffset.UTC)));
        logging.run();
        return out.toString(StandardCharsets.UTF_8);
    }

    @AfterEach
    void restore() {
        MDC.clear();
        LogLines.use(new LogLines(System.err, LogLines.Format.TEXT, new LogLines.Timestamps(ZoneOffset.UTC)));
    }

    @Test
    void slf4jFindsThisBackend() {
        assertEquals(ConsoleLogger.class, LoggerFactory.getLogger("dev.plantstore.x").getClass());
    }

    @Test
    void aTextLineWrittenWhileARequestIsServedCarriesItsId() {
        String log = logged(LogLines.Format.TEXT, () -> {
            MDC.put("requestId", "req-7");
            LoggerFactory.getLogger("dev.plantstore.http.PlantStoreApi").warn("store {} is slow", "db");
            MDC.remove("requestId");
            LoggerFactory.getLogger("dev.plantstore.http.PlantStoreApi").info("no request");
        });
        var lines = log.lines().toList();
        assertTrue(lines.get(0).matches(
                "\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z WARN \\[req-7] PlantStoreApi - store db is slow"), log);
        assertTrue(lines.get(1).matches("\\S+ INFO PlantStoreApi - no request"), log);
    }

    @Test
    void aLineWrittenWhileATracedRequestIsServedCarriesItsTraceIdInTextAndBothIdsInJson() throws Exception {
        Runnable traced = () -> {
            MDC.put("requestId", "req-9");
            MDC.put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
            MDC.put("spanId", "00f067aa0ba902b7");
            LoggerFactory.getLogger("dev.plantstore.http.PlantStoreApi").warn("slow");
            MDC.clear();
        };
        assertTrue(logged(LogLines.Format.TEXT, traced).contains("[req-9 trace=4bf92f3577b34da6a3ce929d0e0e4736] "));
        List<String> lines = logged(LogLines.Format.JSON, traced).lines().toList();
        var json = new ObjectMapper().readTree(lines.get(lines.size() - 1));
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", json.get("traceId").textValue());
        assertEquals("00f067aa0ba902b7", json.get("spanId").textValue());
    }

    @Test
    void aJsonLineIsOneObjectWithTimeLevelLoggerMessageAndTheRequestFields() throws Exception {
        String log = logged(LogLines.Format.JSON, () -> {
            MDC.put("requestId", "req-\"8\"");
            MDC.put("method", "POST");
            MDC.put("route", "/plants");
            MDC.put("status", "201");
            MDC.put("durationMs", "1.5");
            LoggerFactory.getLogger("dev.plantstore.access").info("POST /plants 201 1.5ms\nforged line");
        });
        assertEquals(1, log.lines().count(), log);
        JsonNode line = new ObjectMapper().readTree(log);
        assertTrue(line.get("time").textValue().endsWith("Z"), log);
        assertEquals("INFO", line.get("level").textValue());
        assertEquals("dev.plantstore.access", line.get("logger").textValue());
        assertEquals("POST /plants 201 1.5ms\nforged line", line.get("message").textValue());
        assertEquals("req-\"8\"", line.get("requestId").textValue());
        assertEquals("POST", line.get("method").textValue());
        assertEquals("/plants", line.get("route").textValue());
        assertEquals(201, line.get("status").intValue());
        assertEquals(1.5, line.get("durationMs").doubleValue());
    }

    @Test
    void aTextLineEscapesEveryControlLineSeparatorAndBidiCharacterAClientCouldSend() {
        var sent = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            sent.append(c);
        }
        sent.append('\u007f');
        for (char c = 0x80; c < 0xa0; c++) {
            sent.append(c);
        }
        sent.append("\u2028\u2029\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069");
        String log = logged(LogLines.Format.TEXT, () -> {
            MDC.put("requestId", "req-9");
            LoggerFactory.getLogger("dev.plantstore.access").info("GET /a" + sent + "b 404 0.1ms");
        });
        assertEquals(1, log.lines().count(), log);
        String line = log.substring(0, log.length() - System.lineSeparator().length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            assertTrue(c >= 0x20 && c < 0x7f, () -> "raw U+%04X in %s".formatted((int) c, line));
        }
        assertTrue(line.endsWith("access - GET /a\\u0000\\u0001"
                + line.substring(line.indexOf("\\u0002"), line.indexOf("b 404")) + "b 404 0.1ms"), line);
        assertTrue(line.contains("\\n") && line.contains("\\u0085") && line.contains("\\u2028")
                && line.contains("\\u202e"), line);
        assertTrue(logged(LogLines.Format.TEXT, () -> LoggerFactory.getLogger("dev.plantstore.x")
                .info("Monstera \u00e9t\u00e9 \ud83c\udf3f")).contains("Monstera \u00e9t\u00e9 \ud83c\udf3f"),
                "other text stays as it is");
    }

    @Test
    void aFailedExportOfTheTracingSdkIsOneLineWithoutAStackTrace() {
        String log = logged(LogLines.Format.TEXT, () -> LoggerFactory
                .getLogger("io.opentelemetry.exporter.internal.http.HttpExporter")
                .warn("Failed to export spans.", new java.net.ConnectException("Connection refused")));
        assertEquals(1, log.lines().count(), log);
        assertTrue(log.contains("Failed to export spans. (java.net.ConnectException: Connection refused)"), log);
    }

    @Test
    void aFailedCleanUpOfSqlitesNativeLibraryIsOneLineWithoutAStackTrace() {
        String log = logged(LogLines.Format.TEXT, () -> LoggerFactory.getLogger("org.sqlite.SQLiteJDBCLoader")
                .error("Failed to delete old native lib", new java.nio.file.NoSuchFileException(
                        "/tmp/sqlite-3.54.1.0-f5b8faf7-067e-4057-87b5-97bc364b2168-libsqlitejdbc.so")));
        assertEquals(1, log.lines().count(), log);
        assertTrue(log.contains("Failed to delete old native lib (java.nio.file.NoSuchFileException: /tmp/sqlite-"),
                log);
    }

    @Test
    void anotherLoggersFailureKeepsItsStackTrace() {
        String log = logged(LogLines.Format.TEXT, () -> LoggerFactory.getLogger("dev.plantstore.x")
                .warn("failed", new IllegalStateException("broken")));
        assertTrue(log.lines().count() > 1 && log.contains("\tat "), log);
    }

    @Test
    void aJsonLineEscapesControlCharactersAsJsonDoes() throws Exception {
        String log = logged(LogLines.Format.JSON, () -> LoggerFactory.getLogger("dev.plantstore.access")
                .info("GET /\u0085\u2028\u202e\u001b[2J 404 0.1ms"));
        assertEquals(1, log.lines().count(), log);
        assertEquals("GET /\u0085\u2028\u202e\u001b[2J 404 0.1ms",
                new ObjectMapper().readTree(log).get("message").textValue());
    }

    @Test
    void aJsonLineKeepsAStackTraceInOneField() throws Exception {
        String log = logged(LogLines.Format.JSON, () -> LoggerFactory.getLogger("dev.plantstore.x")
                .error("request {} failed", "r1", new IllegalStateException("boom")));
        assertEquals(1, log.lines().count(), log);
        JsonNode line = new ObjectMapper().readTree(log);
        assertEquals("request r1 failed", line.get("message").textValue());
        assertTrue(line.get("exception").textValue().startsWith("java.lang.IllegalStateException: boom"), log);
    }

    @Test
    void jettyAndJavalinSpeakOnlyAboutProblemsJavalinsOwnLoggerNotAtAllAndThePoolOnlyOfErrors() {
        String log = logged(LogLines.Format.TEXT, () -> {
            LoggerFactory.getLogger("org.eclipse.jetty.server.Server").info("Started");
            LoggerFactory.getLogger("io.javalin.Javalin").error("Port in use");
            LoggerFactory.getLogger("com.zaxxer.hikari.pool.ProxyConnection").warn("connection marked as broken");
            LoggerFactory.getLogger("com.zaxxer.hikari.pool.HikariPool").error("pool failed");
        });
        assertEquals(1, log.lines().count(), log);
        assertTrue(log.contains("ERROR HikariPool - pool failed"), log);
    }

    @Test
    void theCoresLinesThroughTheJdksPlatformLoggerAreTheServersLines() throws Exception {
        String log = logged(LogLines.Format.JSON, () -> System.getLogger("dev.plantstore.core.jdbc.JdbcPlantStore")
                .log(System.Logger.Level.ERROR, "plant store writes failing: disk full"));
        JsonNode line = new ObjectMapper().readTree(log);
        assertEquals("plant store writes failing: disk full", line.get("message").textValue());
        assertEquals("ERROR", line.get("level").textValue());
        assertEquals("dev.plantstore.core.jdbc.JdbcPlantStore", line.get("logger").textValue());
    }

    @Test
    void aLibrarysJavaUtilLoggingLinesAreTheServersLines() throws Exception {
        Console.routeJavaUtilLogging();
        String log = logged(LogLines.Format.JSON, () -> java.util.logging.Logger.getLogger("org.postgresql.Driver")
                .warning("connection attempt failed"));
        JsonNode line = new ObjectMapper().readTree(log);
        assertEquals("connection attempt failed", line.get("message").textValue());
        assertEquals("WARN", line.get("level").textValue());
        assertEquals("org.postgresql.Driver", line.get("logger").textValue());
    }
}
