// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.srv6int.app.api.model.InterferenceView;
import org.srv6int.app.api.model.VnfClass;

import java.util.List;

/**
 * JSON of the interference matrix for REST and the CLI:
 * {"classes": {"I": "header reading", ...}, "targets": {"III": {"I": {"normalized": 0.72,
 * "paper": 0.72, "samples": 0}, ...}, ...}}.
 */
public final class InterferenceJson {

    private InterferenceJson() {
    }

    /**
     * Encodes the matrix, or one target's row.
     *
     * @param mapper  JSON mapper
     * @param view    the matrix
     * @param targets the target classes to include
     * @return JSON object
     */
    public static ObjectNode encode(ObjectMapper mapper, InterferenceView view, List<VnfClass> targets) {
        ObjectNode root = mapper.createObjectNode();
        ObjectNode classes = root.putObject("classes");
        for (VnfClass c : VnfClass.values()) {
            classes.put(c.roman(), c.operation());
        }
        ObjectNode t = root.putObject("targets");
        for (VnfClass target : targets) {
            ObjectNode row = t.putObject(target.roman());
            for (VnfClass c : VnfClass.values()) {
                ObjectNode cell = row.putObject(c.roman());
                cell.put("normalized", Math.round(view.normalized(target, c) * 10000) / 10000.0);
                cell.put("paper", view.seed(target, c));
                cell.put("samples", view.samples(target, c));
            }
        }
        return root;
    }
}
