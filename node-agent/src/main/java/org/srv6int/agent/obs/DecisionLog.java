// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.obs;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.srv6int.agent.loop.Decision;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The structured decision log: one JSON object per line per decision,
 * flushed at once so the last decision before a crash is on disk.
 */
public final class DecisionLog implements AutoCloseable {

    private final ObjectMapper mapper = new ObjectMapper();
    private final PrintStream out;
    private final boolean owned;
    private final String node;
    private volatile List<String> names;
    private long failures;

    /**
     * Opens the log.
     *
     * @param target file path (appended), "-" for standard output
     * @param node node name
     * @param names vNF names by index
     * @throws IOException if the file cannot be opened
     */
    public DecisionLog(String target, String node, List<String> names) throws IOException {
        this.node = node;
        this.names = List.copyOf(names);
        if ("-".equals(target)) {
            out = System.out;
            owned = false;
        } else {
            Path p = Path.of(target);
            if (p.getParent() != null) {
                Files.createDirectories(p.getParent());
            }
            OutputStream os = Files.newOutputStream(p, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            out = new PrintStream(os, false, StandardCharsets.UTF_8);
            owned = true;
        }
    }

    /**
     * The vNF names after the set of vNFs changed (decisions carry indexes).
     *
     * @param vnfNames names by index
     */
    public void names(List<String> vnfNames) {
        this.names = List.copyOf(vnfNames);
    }

    /**
     * Formats a decision as one JSON line (no newline).
     *
     * @param d decision
     * @return JSON text
     */
    public String format(Decision d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ts", Instant.now().toString());
        m.put("node", node);
        m.put("vnf", names.get(d.vnf()));
        m.put("action", d.action().name());
        if (d.resource() != null) {
            m.put("resource", d.resource().name());
            m.put("unit", d.action() == Decision.Action.ROTATE ? "T" : d.resource().unit());
        }
        if (d.from() >= 0) {
            m.put("from", d.from());
        }
        if (d.to() >= 0) {
            m.put("to", d.to());
        }
        if (d.l95Ns() >= 0) {
            m.put("l95Ns", d.l95Ns());
        }
        m.put("lmaxNs", d.lmaxNs());
        if (d.peer() >= 0) {
            m.put("peer", names.get(d.peer()));
        }
        if (!d.detail().isEmpty()) {
            m.put("detail", d.detail());
        }
        try {
            return mapper.writeValueAsString(m);
        } catch (IOException e) {
            return "{\"action\":\"" + d.action() + "\",\"error\":\"unserialisable\"}";
        }
    }

    /**
     * Appends one decision.
     *
     * @param d decision
     */
    public synchronized void write(Decision d) {
        out.println(format(d));
        out.flush();
        if (out.checkError()) {
            failures++;
        }
    }

    /**
     * Appends one decision of another controller on the node (NUMASFP), given as fields.
     *
     * @param fields action, subject and reason; ts and node are added in front
     */
    public synchronized void writeFields(Map<String, Object> fields) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ts", Instant.now().toString());
        m.put("node", node);
        m.putAll(fields);
        try {
            out.println(mapper.writeValueAsString(m));
        } catch (IOException e) {
            out.println("{\"action\":\"" + fields.get("action") + "\",\"error\":\"unserialisable\"}");
        }
        out.flush();
        if (out.checkError()) {
            failures++;
        }
    }

    /**
     * Lines that could not be written.
     *
     * @return count
     */
    public synchronized long failures() {
        return failures;
    }

    @Override
    public void close() {
        if (owned) {
            out.close();
        }
    }
}
