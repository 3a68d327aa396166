package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/deploy/prometheus-rules.yaml asks only for metrics and labels the webhooks page documents. */
class PrometheusRulesTest {

    private static final Path RULES = ReaderShell.ROOT.resolve("docs/deploy/prometheus-rules.yaml");
    private static final Path PAGE = ReaderShell.ROOT.resolve("docs/webhooks.md");
    private static final Pattern METRIC = Pattern.compile("plantstore_[a-z_]+");

    @Test
    void everyRuleNamesADocumentedMetricByItsReceiverLabel() throws Exception {
        String page = Files.readString(PAGE);
        List<JsonNode> rules = new ArrayList<>();
        new YAMLMapper().readTree(RULES.toFile()).at("/groups/0/rules").forEach(rules::add);
        assertEquals(List.of("PlantstoreWebhookBehind", "PlantstoreWebhookSlow"),
                rules.stream().map(rule -> rule.path("alert").asText()).toList());
        for (JsonNode rule : rules) {
            String expression = rule.path("expr").asText();
            Matcher metric = METRIC.matcher(expression);
            assertTrue(metric.find(), expression);
            String documented = metric.group().replaceFirst("_bucket$", "");
            assertTrue(page.contains("| `" + documented + "`") || page.contains("| `" + documented + "{"),
                    documented + " is not in the webhooks page's metrics");
            assertTrue(expression.contains("by (receiver"), expression);
            assertFalse(rule.path("annotations").path("summary").asText().isBlank(), rule.toString());
        }
    }
}
