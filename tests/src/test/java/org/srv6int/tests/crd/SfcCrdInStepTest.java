// SPDX-License-Identifier: Apache-2.0
package org.srv6int.tests.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.rest.SfcCodec;
import org.yaml.snakeyaml.Yaml;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Keeps the ServiceFunctionChain CRD (k8s-bridge/deploy/crd/servicefunctionchains.yaml) in step
 * with the app: its bounds are the app's constants (Sfc.MAX_VNFS, SfcId.MAX, the loop's actions
 * and outcomes, the replica states), and every case of k8s-bridge/deploy/crd/testdata/cases.json
 * that the real API server must refuse (ServiceFunctionChainCrdTest in k8s-bridge/bridge) is
 * refused by the REST codec of POST /onos/srv6int/sfcs naming the same field, and every case it
 * must admit is accepted by the codec: a new REST rule without a case, or a case the CRD and the
 * REST disagree on, fails here or there.
 */
public class SfcCrdInStepTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final File ROOT = new File(System.getProperty("srv6int.root", ".."));

    private static JsonNode crd;
    private static JsonNode cases;

    @BeforeClass
    public static void load() throws Exception {
        Object yaml = new Yaml().load(Files.readString(
                new File(ROOT, "k8s-bridge/deploy/crd/servicefunctionchains.yaml").toPath()));
        crd = JSON.valueToTree(yaml);
        cases = JSON.readTree(new File(ROOT, "k8s-bridge/deploy/crd/testdata/cases.json"));
    }

    private static JsonNode schema() {
        JsonNode versions = crd.path("spec").path("versions");
        assertEquals("one version so far", 1, versions.size());
        assertEquals("v1alpha1", versions.get(0).path("name").asText());
        return versions.get(0).path("schema").path("openAPIV3Schema").path("properties");
    }

    private static List<String> enumOf(JsonNode n) {
        List<String> l = new ArrayList<>();
        n.path("enum").forEach(x -> l.add(x.asText()));
        return l;
    }

    private static <E extends Enum<E>> List<String> names(E[] values) {
        return Arrays.stream(values).map(Enum::name).collect(Collectors.toList());
    }

    @Test
    public void boundsAreTheAppsConstants() {
        JsonNode spec = schema().path("spec").path("properties");
        JsonNode status = schema().path("status").path("properties");
        assertEquals("spec.vnfs maxItems = Sfc.MAX_VNFS", Sfc.MAX_VNFS, spec.path("vnfs").path("maxItems").asInt());
        assertEquals("status.vnfs maxItems = Sfc.MAX_VNFS", Sfc.MAX_VNFS,
                     status.path("vnfs").path("maxItems").asInt());
        assertEquals(Sfc.MAX_VNFS - 1,
                     status.path("vnfs").path("items").path("properties").path("index").path("maximum").asInt());
        assertEquals(Sfc.MAX_VNFS - 1, status.path("bottleneck").path("properties").path("vnfIndex")
                .path("maximum").asInt());
        assertEquals(Sfc.MAX_VNFS - 1, status.path("lastDecisions").path("items").path("properties")
                .path("vnfIndex").path("maximum").asInt());
        assertEquals(1, spec.path("id").path("minimum").asInt());
        assertEquals(SfcId.MAX, spec.path("id").path("maximum").asInt());
        JsonNode decision = status.path("lastDecisions").path("items").path("properties");
        assertEquals(names(LoopDecision.Action.values()), enumOf(decision.path("action")));
        assertEquals(names(LoopDecision.Outcome.values()), enumOf(decision.path("outcome")));
        List<String> states = enumOf(status.path("vnfs").path("items").path("properties").path("replicas")
                                             .path("items").path("properties").path("state"));
        assertTrue(states + " holds every ReplicaState", states.containsAll(names(ReplicaState.values())));
        assertTrue(states.contains("DEAD"));
    }

    @Test
    public void printerColumnsReadFieldsTheSchemaHas() {
        for (JsonNode c : crd.path("spec").path("versions").get(0).path("additionalPrinterColumns")) {
            String path = c.path("jsonPath").asText();
            if (path.startsWith(".metadata") || path.contains("[?(")) {
                continue;
            }
            JsonNode n = crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
            for (String part : path.substring(1).split("\\.")) {
                n = n.path("properties").path(part);
            }
            assertTrue(c.path("name").asText() + ": " + path + " is in the schema", !n.isMissingNode());
        }
    }

    /** The valid body with one case's JSON-pointer edits ("set", then "remove"). */
    static ObjectNode edited(JsonNode valid, JsonNode c) {
        ObjectNode spec = valid.deepCopy();
        c.path("set").fields().forEachRemaining(e -> {
            String p = e.getKey();
            int slash = p.lastIndexOf('/');
            JsonNode parent = slash == 0 ? spec : spec.at(p.substring(0, slash));
            if (parent.isArray()) {
                ((ArrayNode) parent).set(Integer.parseInt(p.substring(slash + 1)), e.getValue().deepCopy());
            } else {
                ((ObjectNode) parent).set(p.substring(slash + 1), e.getValue().deepCopy());
            }
        });
        c.path("remove").forEach(x -> {
            String p = x.asText();
            int slash = p.lastIndexOf('/');
            JsonNode parent = slash == 0 ? spec : spec.at(p.substring(0, slash));
            ((ObjectNode) parent).remove(p.substring(slash + 1));
        });
        return spec;
    }

    @Test
    public void restCodecAdmitsWhatTheCrdAdmits() {
        List<String> wrong = new ArrayList<>();
        for (JsonNode c : cases.path("admitted")) {
            try {
                new SfcCodec().decode(edited(cases.path("valid"), c), null);
            } catch (RuntimeException e) {
                wrong.add(c.path("case").asText() + ": " + e);
            }
        }
        assertTrue("the REST codec refuses:\n" + String.join("\n", wrong), wrong.isEmpty());
    }

    @Test
    public void restCodecRefusesWhatTheCrdRefusesNamingTheSameField() {
        List<String> wrong = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        for (JsonNode c : cases.path("refused")) {
            String field = c.path("field").asText();
            String got;
            try {
                new SfcCodec().decode(edited(cases.path("valid"), c), null);
                got = "ADMITTED";
            } catch (InvalidFieldException e) {
                got = e.field() + ": " + e.reason();
            } catch (RuntimeException e) {
                got = "not a field error: " + e;
            }
            table.append(String.format("%-40s %-22s %s%n", c.path("case").asText(), field, got));
            if (!got.startsWith(field + ": ")) {
                wrong.add(c.path("case").asText() + " (expected " + field + "): " + got);
            }
        }
        System.out.print("SfcCrdInStepTest: refused by POST /sfcs (case, field, REST message):\n" + table);
        assertTrue("the REST codec differs from the CRD:\n" + String.join("\n", wrong), wrong.isEmpty());
    }

    /** Enough of a codec context for SfcCodec.encode: a mapper. */
    private static final CodecContext CONTEXT = new CodecContext() {
        @Override
        public ObjectMapper mapper() {
            return JSON;
        }

        @Override
        public <T> JsonCodec<T> codec(Class<T> type) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> T getService(Class<T> type) {
            throw new UnsupportedOperationException();
        }
    };

    @Test
    public void everyRestFieldIsInTheCrd() {
        // What the codec writes (GET /sfcs/{id}) has the fields POST takes; the spec holds them by the same names.
        Sfc sfc = new SfcCodec().decode(edited(cases.path("valid"), JSON.createObjectNode()), null);
        ObjectNode rest = new SfcCodec().encode(sfc, CONTEXT);
        JsonNode spec = schema().path("spec").path("properties");
        List<String> missing = new ArrayList<>();
        rest.fieldNames().forEachRemaining(f -> {
            if (spec.path(f).isMissingNode()) {
                missing.add(f);
            }
        });
        rest.path("classifier").fieldNames().forEachRemaining(f -> {
            if (spec.path("classifier").path("properties").path(f).isMissingNode()) {
                missing.add("classifier." + f);
            }
        });
        rest.path("vnfs").get(0).fieldNames().forEachRemaining(f -> {
            if (spec.path("vnfs").path("items").path("properties").path(f).isMissingNode()) {
                missing.add("vnfs[]." + f);
            }
        });
        assertTrue("REST fields not in the CRD's spec: " + missing, missing.isEmpty());
    }
}
