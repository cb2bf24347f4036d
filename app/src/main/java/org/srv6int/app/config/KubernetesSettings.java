// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.k8s.rules.ReplicaRules;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.srv6int.app.config.ConfigChecks.integer;
import static org.srv6int.app.config.ConfigChecks.join;
import static org.srv6int.app.config.ConfigChecks.object;
import static org.srv6int.app.config.ConfigChecks.onlyFields;
import static org.srv6int.app.config.ConfigChecks.text;

/**
 * The {@code kubernetes} section of {@link Srv6IntAppConfig}: where the Kubernetes bridge
 * creates vNF replicas for the global loop.
 * <pre>
 * "kubernetes": {
 *   "kubeconfig": "/opt/onos/config/bridge.kubeconfig",
 *   "namespace": "srv6int-sfc", "readyTimeoutMs": 120000,
 *   "vnfTypes": {
 *     "snort": { "image": "registry.local/snort:2.9",
 *                "requests": { "cpu": "2", "memory": "4Gi" }, "limits": { "cpu": "4", "memory": "4Gi" },
 *                "capabilities": ["NET_RAW", "NET_ADMIN"] }
 *   }
 * }
 * </pre>
 * Credentials are either {@code kubeconfig} (a file path) or {@code apiServer} plus
 * {@code tokenFile} (a ServiceAccount bearer token, read on every request) and optionally
 * {@code caFile} (PEM). Paths must be absolute; the files are read when the client is built.
 * Equal settings compare equal, so a netcfg update that does not touch this section keeps the
 * client. A type's optional {@code capabilities} (NET_RAW, NET_ADMIN, NET_BIND_SERVICE) are the
 * only ones its container keeps; a type without NET_RAW or NET_ADMIN runs non-root and passes Pod
 * Security restricted (docs/security.md, "Replica pods").
 */
public final class KubernetesSettings {

    /** Default namespace of the replicas (the one bridge-rbac.yaml grants). */
    public static final String DEFAULT_NAMESPACE = "srv6int-sfc";
    /** Default time a new replica's pod has to become Ready, ms. */
    public static final long DEFAULT_READY_TIMEOUT_MS = 120_000;

    static final String API_SERVER = "apiServer";
    static final String NAMESPACE = "namespace";
    static final String KUBECONFIG = "kubeconfig";
    static final String TOKEN_FILE = "tokenFile";
    static final String CA_FILE = "caFile";
    static final String READY_TIMEOUT = "readyTimeoutMs";
    static final String VNF_TYPES = "vnfTypes";
    static final String IMAGE = "image";
    static final String REQUESTS = "requests";
    static final String LIMITS = "limits";
    static final String PROFILE = "profile";
    static final String CAPABILITIES = "capabilities";
    static final String LLC_WAYS = "llcWays";
    static final String MEMORY_BANDWIDTH = "memoryBandwidthPercent";

    private final ObjectNode node;

    KubernetesSettings(ObjectNode node) {
        this.node = node.deepCopy();
    }

    /**
     * Checks the section.
     *
     * @param k    the section
     * @param path its JSON path, for messages
     * @throws InvalidFieldException naming the first bad field and why
     */
    static void validate(ObjectNode k, String path) {
        onlyFields(k, path, API_SERVER, NAMESPACE, KUBECONFIG, TOKEN_FILE, CA_FILE, READY_TIMEOUT, VNF_TYPES);
        String kubeconfig = absolutePath(k, path, KUBECONFIG);
        String token = absolutePath(k, path, TOKEN_FILE);
        String ca = absolutePath(k, path, CA_FILE);
        String api = text(k, path, API_SERVER, false);
        if ((kubeconfig == null) == (token == null)) {
            throw new InvalidFieldException(join(path, KUBECONFIG),
                                            "give exactly one of kubeconfig and tokenFile (with apiServer)");
        }
        if (kubeconfig != null && (api != null || ca != null)) {
            throw new InvalidFieldException(join(path, api != null ? API_SERVER : CA_FILE),
                                            "not allowed with kubeconfig (the kubeconfig names the server)");
        }
        if (token != null) {
            if (api == null) {
                throw new InvalidFieldException(join(path, API_SERVER), "is required with tokenFile");
            }
            checkUrl(api, join(path, API_SERVER));
        }
        String ns = text(k, path, NAMESPACE, false);
        if (ns != null) {
            try {
                ReplicaRules.checkNamespace(ns);
            } catch (IllegalArgumentException e) {
                throw new InvalidFieldException(join(path, NAMESPACE), "must be a DNS label, got '" + ns + "'");
            }
        }
        integer(k, path, READY_TIMEOUT, false, 1000, 3_600_000);
        ObjectNode types = object(k, path, VNF_TYPES, true);
        String typesPath = join(path, VNF_TYPES);
        if (types.size() == 0) {
            throw new InvalidFieldException(typesPath, "must name at least one vNF type");
        }
        Iterator<Map.Entry<String, JsonNode>> it = types.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            validateType(types, typesPath, e.getKey());
        }
    }

    private static void validateType(ObjectNode types, String typesPath, String type) {
        ObjectNode t = object(types, typesPath, type, true);
        String tp = join(typesPath, type);
        onlyFields(t, tp, IMAGE, REQUESTS, LIMITS, PROFILE, CAPABILITIES);
        JsonNode caps = t.get(CAPABILITIES);
        if (caps != null) {
            String cp = join(tp, CAPABILITIES);
            if (!caps.isArray()) {
                throw new InvalidFieldException(cp, "must be a list such as [\"NET_RAW\"], got " + caps);
            }
            for (JsonNode c : caps) {
                try {
                    ReplicaRules.checkCapability(c.isTextual() ? c.asText() : String.valueOf(c));
                } catch (IllegalArgumentException ex) {
                    throw new InvalidFieldException(cp, ex.getMessage());
                }
            }
        }
        ObjectNode profile = object(t, tp, PROFILE, false);
        if (profile != null) {
            String pp = join(tp, PROFILE);
            onlyFields(profile, pp, LLC_WAYS, MEMORY_BANDWIDTH);
            integer(profile, pp, LLC_WAYS, false, 0, 64);
            integer(profile, pp, MEMORY_BANDWIDTH, false, 0, 100);
        }
        text(t, tp, IMAGE, true);
        // The bridge's own rules decide what is a valid type, image and quantity.
        try {
            ReplicaRules.checkVnfType(type);
            ReplicaRules.checkImage(t.get(IMAGE).asText());
        } catch (IllegalArgumentException ex) {
            throw new InvalidFieldException(tp, ex.getMessage());
        }
        for (String section : new String[] {REQUESTS, LIMITS}) {
            ObjectNode q = object(t, tp, section, false);
            if (q == null) {
                continue;
            }
            Iterator<Map.Entry<String, JsonNode>> it = q.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String field = join(join(tp, section), e.getKey());
                if (!e.getValue().isTextual()) {
                    throw new InvalidFieldException(field, "must be a quantity string such as \"2\" or \"4Gi\", got "
                            + e.getValue());
                }
                try {
                    ReplicaRules.checkQuantity(REQUESTS.equals(section) ? "request" : "limit", e.getKey(),
                                               e.getValue().asText());
                } catch (IllegalArgumentException ex) {
                    throw new InvalidFieldException(field, ex.getMessage());
                }
            }
        }
    }

    private static String absolutePath(ObjectNode k, String path, String field) {
        String p = text(k, path, field, false);
        if (p != null && !p.startsWith("/")) {
            throw new InvalidFieldException(join(path, field), "must be an absolute file path, got '" + p + "'");
        }
        return p;
    }

    private static void checkUrl(String api, String field) {
        try {
            URI u = new URI(api);
            if (!("https".equals(u.getScheme()) || "http".equals(u.getScheme())) || u.getHost() == null) {
                throw new InvalidFieldException(field, "must be an http(s)://host[:port] URL, got '" + api + "'");
            }
        } catch (URISyntaxException e) {
            throw new InvalidFieldException(field, "is not a URL: " + api);
        }
    }

    private Optional<String> textField(String field) {
        JsonNode n = node.get(field);
        return n == null || n.isNull() ? Optional.empty() : Optional.of(n.asText());
    }

    /**
     * Returns the kubeconfig file.
     *
     * @return path, empty when a token is used
     */
    public Optional<String> kubeconfig() {
        return textField(KUBECONFIG);
    }

    /**
     * Returns the API server URL (with a token).
     *
     * @return URL, empty with a kubeconfig
     */
    public Optional<String> apiServer() {
        return textField(API_SERVER);
    }

    /**
     * Returns the bearer token file.
     *
     * @return path, empty with a kubeconfig
     */
    public Optional<String> tokenFile() {
        return textField(TOKEN_FILE);
    }

    /**
     * Returns the CA certificate file checking the API server.
     *
     * @return path, empty to use the JVM's trust store
     */
    public Optional<String> caFile() {
        return textField(CA_FILE);
    }

    /**
     * Returns the namespace of the replicas.
     *
     * @return namespace, default {@value #DEFAULT_NAMESPACE}
     */
    public String namespace() {
        return textField(NAMESPACE).orElse(DEFAULT_NAMESPACE);
    }

    /**
     * Returns how long a new replica's pod may take to become Ready.
     *
     * @return ms, default {@value #DEFAULT_READY_TIMEOUT_MS}
     */
    public long readyTimeoutMillis() {
        JsonNode n = node.get(READY_TIMEOUT);
        return n == null || !n.canConvertToLong() ? DEFAULT_READY_TIMEOUT_MS : n.asLong();
    }

    /**
     * Returns the template of a vNF type's replicas: image, requests and limits, as netcfg gives
     * them (checked with the bridge's rules when netcfg was applied).
     *
     * @param vnfType vNF type (a chain's {@code VnfSpec} type)
     * @return template, empty if the type is not configured
     */
    public Optional<VnfTemplate> template(String vnfType) {
        JsonNode t = node.path(VNF_TYPES).get(vnfType);
        if (t == null || !t.isObject()) {
            return Optional.empty();
        }
        List<String> caps = new ArrayList<>();
        t.path(CAPABILITIES).forEach(c -> caps.add(c.asText()));
        return Optional.of(new VnfTemplate(t.get(IMAGE).asText(), quantities(t.get(REQUESTS)),
                                           quantities(t.get(LIMITS)), Collections.unmodifiableList(caps)));
    }

    /**
     * Returns the CPU request of one replica of a vNF type ("2", "1.5" or "500m").
     *
     * @param vnfType vNF type
     * @return millicores, 0 if the type or its CPU request is not configured
     */
    public long cpuRequestMillis(String vnfType) {
        JsonNode cpu = node.path(VNF_TYPES).path(vnfType).path(REQUESTS).get("cpu");
        if (cpu == null || !cpu.isTextual()) {
            return 0;
        }
        String q = cpu.asText().trim();
        try {
            return q.endsWith("m") ? Long.parseLong(q.substring(0, q.length() - 1))
                    : Math.round(Double.parseDouble(q) * 1000);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Returns what one replica of a vNF type needs on its node: its CPU request and the LLC ways
     * and memory-bandwidth share of its {@code profile} (checked against the node agents' pool
     * reports, docs/global-loop.md "Pools").
     *
     * @param vnfType vNF type
     * @return need, zeros where not configured
     */
    public ResourceNeed need(String vnfType) {
        JsonNode p = node.path(VNF_TYPES).path(vnfType).path(PROFILE);
        return new ResourceNeed(cpuRequestMillis(vnfType), p.path(LLC_WAYS).asLong(0),
                                p.path(MEMORY_BANDWIDTH).asLong(0));
    }

    private static Map<String, String> quantities(JsonNode q) {
        Map<String, String> m = new TreeMap<>();
        if (q != null && q.isObject()) {
            q.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
        }
        return Collections.unmodifiableMap(m);
    }

    /** A vNF type's replica template: container image, resource requests and limits. */
    public static final class VnfTemplate {
        private final String image;
        private final Map<String, String> requests;
        private final Map<String, String> limits;
        private final List<String> capabilities;

        VnfTemplate(String image, Map<String, String> requests, Map<String, String> limits,
                    List<String> capabilities) {
            this.image = image;
            this.requests = requests;
            this.limits = limits;
            this.capabilities = capabilities;
        }

        /**
         * Returns the Linux capabilities the type's container keeps (all others are dropped).
         *
         * @return capability names, unmodifiable; empty for a type that passes Pod Security restricted
         */
        public List<String> capabilities() {
            return capabilities;
        }

        /**
         * Returns the container image.
         *
         * @return image reference
         */
        public String image() {
            return image;
        }

        /**
         * Returns the resource requests.
         *
         * @return resource name to quantity (e.g. cpu to "2"), sorted, unmodifiable
         */
        public Map<String, String> requests() {
            return requests;
        }

        /**
         * Returns the resource limits.
         *
         * @return resource name to quantity, sorted, unmodifiable
         */
        public Map<String, String> limits() {
            return limits;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KubernetesSettings && node.equals(((KubernetesSettings) o).node);
    }

    @Override
    public int hashCode() {
        return node.hashCode();
    }

    @Override
    public String toString() {
        return node.toString();
    }
}
