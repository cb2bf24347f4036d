// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Test;

import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The ServiceFunctionChain CRD (k8s-bridge/deploy/crd/servicefunctionchains.yaml) on a real
 * kube-apiserver (tools/k8s-testenv/start): applied server-side and Established; every
 * "admitted" spec of k8s-bridge/deploy/crd/testdata/cases.json is created, every "refused" one
 * (one per validation of POST /onos/srv6int/sfcs, which SfcCrdInStepTest in tests/ runs against
 * the REST codec) is refused with 422 naming spec.&lt;the REST field&gt;; the status subresource is
 * written without touching spec or generation; the server's Table has the printer columns.
 * Runs only when {@code srv6int.admin.kubeconfig} (or {@code srv6int.kubeconfig}, whose
 * directory holds admin.kubeconfig; or SRV6INT_ADMIN_KUBECONFIG / SRV6INT_KUBECONFIG) is given,
 * otherwise skipped with the reason printed.
 */
public class ServiceFunctionChainCrdTest {
    static final String CRD_NAME = "servicefunctionchains.srv6int.org";
    private static final String API = "/apis/srv6int.org/v1alpha1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";

    private static KubernetesClient admin;
    private static String ns;
    private static JsonNode cases;

    private static String setting(String property, String env) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            v = System.getenv(env);
        }
        return v == null || v.isBlank() ? null : v;
    }

    /** The admin kubeconfig the CI step or a developer gives, or null. */
    static File adminKubeconfig() {
        String adminKc = setting("srv6int.admin.kubeconfig", "SRV6INT_ADMIN_KUBECONFIG");
        if (adminKc != null) {
            return new File(adminKc);
        }
        String kc = setting("srv6int.kubeconfig", "SRV6INT_KUBECONFIG");
        return kc == null ? null : new File(new File(kc).getParentFile(), "admin.kubeconfig");
    }

    static KubernetesClient client(File kubeconfig) {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig))
                .withHttpClientFactory(new VertxHttpClientFactory()).build();
    }

    /** Applies the CRD server-side and waits until it is Established. */
    static void applyCrd(KubernetesClient client) throws Exception {
        try (InputStream in = Files.newInputStream(new File("../deploy/crd/servicefunctionchains.yaml").toPath())) {
            client.load(in).forceConflicts().serverSideApply();
        }
        CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().withName(CRD_NAME)
                .waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
                        .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())),
                                    30, TimeUnit.SECONDS);
        assertEquals("sfc", crd.getSpec().getNames().getShortNames().get(0));
    }

    @BeforeClass
    public static void connect() throws Exception {
        File kc = adminKubeconfig();
        if (kc == null) {
            String reason = "ServiceFunctionChainCrdTest skipped: no control plane (set -Dsrv6int.admin.kubeconfig="
                    + "<admin kubeconfig> or -Dsrv6int.kubeconfig=<bridge kubeconfig>; tools/k8s-testenv/start "
                            + "makes both)";
            System.out.println(reason);
            Assume.assumeTrue(reason, false);
        }
        cases = JSON.readTree(new File("../deploy/crd/testdata/cases.json"));
        admin = client(kc);
        applyCrd(admin);
        ns = "sfc-crd-test-" + Long.toString(System.nanoTime() & 0xffffff, 36);
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                .create();
    }

    @AfterClass
    public static void disconnect() {
        if (admin != null) {
            if (ns != null) {
                admin.namespaces().withName(ns).delete();
            }
            admin.close();
        }
    }

    // --- HTTP ---------------------------------------------------------------------------------

    /** A response: status code and JSON body. */
    static final class Reply {
        final int code;
        final JsonNode body;

        Reply(int code, JsonNode body) {
            this.code = code;
            this.body = body;
        }

        @Override
        public String toString() {
            return code + " " + body;
        }
    }

    static Reply send(KubernetesClient client, String method, String path, String contentType, Object body,
                      String accept) throws Exception {
        String base = client.getMasterUrl().toString().replaceAll("/$", "");
        HttpRequest.Builder b = client.getHttpClient().newHttpRequestBuilder().uri(base + path);
        if (accept != null) {
            b.setHeader("Accept", accept);
        }
        if (body != null) {
            b.method(method, contentType, body instanceof String ? (String) body : JSON.writeValueAsString(body));
        } else if (!"GET".equals(method)) {
            throw new IllegalArgumentException(method + " without a body");
        }
        HttpResponse<String> r = client.getHttpClient().sendAsync(b.build(), String.class).get(30, TimeUnit.SECONDS);
        String text = r.body();
        return new Reply(r.code(), text == null || text.isEmpty() ? JSON.nullNode() : JSON.readTree(text));
    }

    private static Reply call(String method, String path, Object body) throws Exception {
        return send(admin, method, path, "application/json", body, null);
    }

    private static String collection() {
        return API + "/namespaces/" + ns + "/servicefunctionchains";
    }

    // --- cases.json -------------------------------------------------------------------------

    /** The valid spec with one case's JSON-pointer edits ("set", then "remove"). */
    static ObjectNode edited(JsonNode valid, JsonNode c) {
        ObjectNode spec = valid.deepCopy();
        c.path("set").fields().forEachRemaining(e -> put(spec, e.getKey(), e.getValue()));
        c.path("remove").forEach(p -> remove(spec, p.asText()));
        return spec;
    }

    private static void put(ObjectNode root, String pointer, JsonNode value) {
        int slash = pointer.lastIndexOf('/');
        JsonNode parent = pointer.substring(0, slash).isEmpty() ? root : root.at(pointer.substring(0, slash));
        String last = pointer.substring(slash + 1);
        if (parent.isArray()) {
            ((ArrayNode) parent).set(Integer.parseInt(last), value.deepCopy());
        } else {
            ((ObjectNode) parent).set(last, value.deepCopy());
        }
    }

    private static void remove(ObjectNode root, String pointer) {
        int slash = pointer.lastIndexOf('/');
        JsonNode parent = pointer.substring(0, slash).isEmpty() ? root : root.at(pointer.substring(0, slash));
        ((ObjectNode) parent).remove(pointer.substring(slash + 1));
    }

    static ObjectNode cr(String name, JsonNode spec) {
        ObjectNode o = JSON.createObjectNode().put("apiVersion", "srv6int.org/v1alpha1")
                .put("kind", "ServiceFunctionChain");
        o.putObject("metadata").put("name", name);
        o.set("spec", spec);
        return o;
    }

    private static String slug(String text) {
        String s = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return s.length() > 50 ? s.substring(0, 50).replaceAll("-$", "") : s;
    }

    /** The message of a refusal, and whether a cause names the field. */
    private static String refusal(Reply r, String field) {
        boolean named = false;
        for (JsonNode cause : r.body.path("details").path("causes")) {
            named |= field.equals(cause.path("field").asText());
        }
        String message = r.body.path("message").asText();
        return (named && message.contains(field + ": ") ? "" : "NOT NAMED ") + message;
    }

    // --- tests ------------------------------------------------------------------------------

    @Test
    public void admittedSpecsAreCreatedWithDefaults() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (JsonNode c : cases.path("admitted")) {
            String name = "ok-" + slug(c.path("case").asText());
            Reply r = call("POST", collection(), cr(name, edited(cases.path("valid"), c)));
            if (r.code != 201) {
                wrong.add(c.path("case").asText() + ": " + r);
            }
        }
        assertTrue("refused valid chains:\n" + String.join("\n", wrong), wrong.isEmpty());
        // The REST defaults (SfcCodec.decode) are the schema's defaults.
        Reply r = call("GET", collection() + "/ok-no-vnfs-defaults-for-the-optional-fields", null);
        JsonNode spec = r.body.path("spec");
        assertEquals(r.toString(), 1, spec.path("intSamplingRate").asInt());
        assertEquals(0, spec.path("classifier").path("ipProto").asInt(-1));
        assertEquals(0, spec.path("classifier").path("l4SrcPort").asInt(-1));
        assertEquals(0, spec.path("classifier").path("l4DstPort").asInt(-1));
        assertFalse(spec.path("paused").asBoolean(true));
    }

    @Test
    public void refusedSpecsGet422NamingTheField() throws Exception {
        List<String> wrong = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        for (JsonNode c : cases.path("refused")) {
            String field = "spec." + c.path("field").asText();
            Reply r = call("POST", collection() + "?dryRun=All",
                           cr("bad-" + slug(c.path("case").asText()), edited(cases.path("valid"), c)));
            String got = r.code == 422 ? refusal(r, field) : "HTTP " + r.code + " " + r.body;
            table.append(String.format("%-40s %-22s %s%n", c.path("case").asText(), field,
                                       got.replaceAll("^ServiceFunctionChain.srv6int.org \"[^\"]*\" is invalid: ",
                                               "")));
            if (r.code != 422 || got.startsWith("NOT NAMED")) {
                wrong.add(c.path("case").asText() + ": " + got);
            }
        }
        System.out.print("ServiceFunctionChainCrdTest: refused specs (case, field, API server message):\n" + table);
        assertTrue("not refused with 422 naming the field:\n" + String.join("\n", wrong), wrong.isEmpty());
    }

    @Test
    public void refusedUpdatesGet422NamingTheField() throws Exception {
        Reply created = call("POST", collection(), cr("upd", cases.path("valid")));
        assertEquals(created.toString(), 201, created.code);
        for (JsonNode c : cases.path("refusedUpdates")) {
            String field = "spec." + c.path("field").asText();
            ObjectNode cr = created.body.deepCopy();
            cr.set("spec", edited(created.body.path("spec"), c));
            Reply r = call("PUT", collection() + "/upd", cr);
            assertEquals(c.path("case").asText() + ": " + r, 422, r.code);
            String got = refusal(r, field);
            assertFalse(got, got.startsWith("NOT NAMED"));
            System.out.println("ServiceFunctionChainCrdTest: update " + c.path("case").asText() + ": " + got);
        }
    }

    /** A status as the controller would write it. */
    static ObjectNode status(long generation) {
        ObjectNode s = JSON.createObjectNode().put("observedGeneration", generation).put("state", "Ready")
                .put("replicas", 3);
        s.putObject("bottleneck").put("vnfIndex", 1).put("lmaxNs", 2_000_000L).put("p95Ns", 812_000L)
                .put("bound", "2ms").put("p95", "812us");
        ArrayNode conds = s.putArray("conditions");
        String t = "2026-01-01T00:00:00Z";
        conds.addObject().put("type", "Programmed").put("status", "True").put("reason", "Programmed")
                .put("message", "segment lists installed on 4 devices").put("lastTransitionTime", t)
                .put("observedGeneration", generation);
        conds.addObject().put("type", "WithinBound").put("status", "True").put("reason", "P95UnderLmax")
                .put("message", "every vNF's p95 is under its Lmax").put("lastTransitionTime", t)
                .put("observedGeneration", generation);
        conds.addObject().put("type", "Scaling").put("status", "False").put("reason", "Idle")
                .put("message", "").put("lastTransitionTime", t).put("observedGeneration", generation);
        conds.addObject().put("type", "Down").put("status", "False").put("reason", "ReportsArrive")
                .put("message", "").put("lastTransitionTime", t).put("observedGeneration", generation);
        ArrayNode vnfs = s.putArray("vnfs");
        ObjectNode v0 = vnfs.addObject().put("index", 0).put("type", "fwd").put("lmaxNs", 1_000_000L)
                .put("p95Ns", 120_000L).put("withinBound", true);
        v0.putArray("replicas").addObject().put("name", "sfc-1-0-0").put("node", "worker1")
                .put("sid", "fc00:2::10").put("state", "ACTIVE").put("weight", 1);
        ObjectNode v1 = vnfs.addObject().put("index", 1).put("type", "snort").put("lmaxNs", 2_000_000L)
                .put("p95Ns", 812_000L).put("withinBound", true);
        ArrayNode r1 = v1.putArray("replicas");
        r1.addObject().put("name", "sfc-1-1-0").put("node", "worker1").put("sid", "fc00:2::11")
                .put("state", "ACTIVE").put("weight", 1);
        r1.addObject().put("name", "sfc-1-1-1").put("node", "worker2").put("sid", "fc00:3::11")
                .put("state", "ACTIVE").put("weight", 1);
        s.putArray("lastDecisions").addObject().put("time", t).put("vnfIndex", 1).put("action", "SCALE_OUT")
                .put("replicasBefore", 1).put("replicasAfter", 2).put("outcome", "SUCCEEDED").put("detail", "");
        return s;
    }

    @Test
    public void statusIsWrittenWithoutTouchingSpecOrGeneration() throws Exception {
        Reply created = call("POST", collection(), cr("st", cases.path("valid")));
        assertEquals(created.toString(), 201, created.code);
        long generation = created.body.path("metadata").path("generation").asLong();
        JsonNode spec = created.body.path("spec");

        // Status through /status, with a spec change smuggled in: the spec part is ignored.
        ObjectNode cr = created.body.deepCopy();
        cr.set("status", status(generation));
        ((ObjectNode) cr.path("spec")).put("intSamplingRate", 99);
        Reply put = call("PUT", collection() + "/st/status", cr);
        assertEquals(put.toString(), 200, put.code);
        Reply got = call("GET", collection() + "/st", null);
        assertEquals("spec unchanged", spec, got.body.path("spec"));
        assertEquals("generation unchanged", generation, got.body.path("metadata").path("generation").asLong());
        assertEquals(JSON.readTree(JSON.writeValueAsString(status(generation))), got.body.path("status"));

        // And the other way: a status sent to the main resource is ignored, a spec change bumps generation.
        ObjectNode cr2 = got.body.deepCopy();
        ((ObjectNode) cr2.path("status")).put("state", "Down");
        ((ObjectNode) cr2.path("spec")).put("intSamplingRate", 10);
        Reply upd = call("PUT", collection() + "/st", cr2);
        assertEquals(upd.toString(), 200, upd.code);
        assertEquals("Ready", upd.body.path("status").path("state").asText());
        assertEquals(generation + 1, upd.body.path("metadata").path("generation").asLong());

        // The status has a schema too: a condition status other than True/False/Unknown is refused.
        ObjectNode bad = upd.body.deepCopy();
        ((ObjectNode) bad.path("status").path("conditions").get(0)).put("status", "Maybe");
        Reply refused = call("PUT", collection() + "/st/status", bad);
        assertEquals(refused.toString(), 422, refused.code);
        assertTrue(refused.toString(), refused.body.path("message").asText()
                .contains("status.conditions[0].status"));
    }

    @Test
    public void tableHasThePrinterColumns() throws Exception {
        Reply created = call("POST", collection(), cr("sfc1", cases.path("valid")));
        assertEquals(created.toString(), 201, created.code);
        ObjectNode cr = created.body.deepCopy();
        cr.set("status", status(created.body.path("metadata").path("generation").asLong()));
        assertEquals(200, call("PUT", collection() + "/sfc1/status", cr).code);

        Reply table = send(admin, "GET", collection(), null, null, TABLE);
        assertEquals(table.toString(), 200, table.code);
        assertEquals("Table", table.body.path("kind").asText());
        List<String> columns = new ArrayList<>();
        List<Integer> priorities = new ArrayList<>();
        for (JsonNode c : table.body.path("columnDefinitions")) {
            columns.add(c.path("name").asText());
            priorities.add(c.path("priority").asInt());
        }
        assertEquals(List.of("Name", "ID", "State", "Bound", "P95", "Replicas", "Age",
                             "Programmed", "WithinBound", "Ingress", "Egress", "Paused"), columns);
        assertEquals("wide only", List.of(0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1), priorities);
        JsonNode row = null;
        for (JsonNode r : table.body.path("rows")) {
            if ("sfc1".equals(r.path("cells").get(0).asText())) {
                row = r.path("cells");
            }
        }
        assertTrue(table.toString(), row != null);
        assertEquals(1, row.get(1).asInt());
        assertEquals("Ready", row.get(2).asText());
        assertEquals("2ms", row.get(3).asText());
        assertEquals("812us", row.get(4).asText());
        assertEquals(3, row.get(5).asInt());
        assertEquals("True", row.get(7).asText());
        assertEquals("True", row.get(8).asText());
        assertEquals("of:0000000000000001/1", row.get(9).asText());
        assertFalse(row.get(11).asBoolean(true));
        // As kubectl get sfc -o wide prints it (the server's cells, Age as the server rendered it).
        StringBuilder out = new StringBuilder();
        List<List<String>> lines = new ArrayList<>();
        lines.add(columns.stream().map(s -> s.toUpperCase(Locale.ROOT)).collect(Collectors.toList()));
        for (JsonNode r : table.body.path("rows")) {
            List<String> l = new ArrayList<>();
            r.path("cells").forEach(x -> l.add(x.isNull() ? "<none>" : x.asText()));
            lines.add(l);
        }
        int[] w = new int[columns.size()];
        lines.forEach(l -> {
            for (int i = 0; i < l.size(); i++) {
                w[i] = Math.max(w[i], l.get(i).length());
            }
        });
        lines.forEach(l -> {
            for (int i = 0; i < l.size(); i++) {
                out.append(String.format("%-" + (w[i] + 3) + "s", l.get(i)));
            }
            out.append('\n');
        });
        System.out.print("ServiceFunctionChainCrdTest: the server's Table (kubectl get sfc -o wide):\n" + out);
    }

    @Test
    public void shortNameAndFieldSelector() throws Exception {
        Reply created = call("POST", collection(), cr("sel", edited(cases.path("valid"), JSON.readTree(
                "{\"set\": {\"/id\": 4242}}"))));
        assertEquals(created.toString(), 201, created.code);
        Reply r = call("GET", collection() + "?fieldSelector=spec.id%3D4242", null);
        assertEquals(r.toString(), 200, r.code);
        assertEquals(1, r.body.path("items").size());
        assertEquals("sel", r.body.path("items").get(0).path("metadata").path("name").asText());
        Reply disc = call("GET", API, null);
        boolean found = false;
        for (JsonNode res : disc.body.path("resources")) {
            if ("servicefunctionchains".equals(res.path("name").asText())) {
                found = res.path("shortNames").toString().contains("\"sfc\"");
            }
        }
        if (!found) {
            fail("short name sfc not in discovery: " + disc);
        }
    }
}
