// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import com.google.protobuf.TextFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import p4.config.v1.P4InfoOuterClass.Action;
import p4.config.v1.P4InfoOuterClass.ActionProfile;
import p4.config.v1.P4InfoOuterClass.MatchField;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Table;

/**
 * The compiled program's P4Info as lookups from the ONOS PI names the app uses (table, match field,
 * action, parameter and action-profile names, exactly as in the P4Info) to P4Runtime ids and
 * widths. One index per program; the only place in the twin that maps PI names to P4Info entries,
 * meant to be shared by every dataplane that needs them.
 */
public final class P4InfoIndex {

    /** Class-path location of the pipeconf's P4Info (text format), as the pipeconf loader uses it. */
    public static final String PIPECONF_P4INFO = "/p4c-out/bmv2/p4info.txt";

    private final P4Info p4info;
    private final Map<String, TableInfo> tables = new HashMap<>();
    private final Map<String, ActionInfo> actions = new HashMap<>();
    private final Map<String, Integer> profiles = new HashMap<>();

    /**
     * Indexes a P4Info.
     *
     * @param p4info P4Info message
     */
    public P4InfoIndex(P4Info p4info) {
        this.p4info = p4info;
        for (Table t : p4info.getTablesList()) {
            tables.put(t.getPreamble().getName(), new TableInfo(t));
        }
        for (Action a : p4info.getActionsList()) {
            actions.put(a.getPreamble().getName(), new ActionInfo(a));
        }
        for (ActionProfile p : p4info.getActionProfilesList()) {
            profiles.put(p.getPreamble().getName(), p.getPreamble().getId());
        }
    }

    /**
     * Reads the pipeconf's P4Info from the class path.
     *
     * @return index
     * @throws IllegalStateException if the pipeconf's P4Info is not on the class path or does not parse
     */
    public static P4InfoIndex pipeconf() {
        try (InputStream in = P4InfoIndex.class.getResourceAsStream(PIPECONF_P4INFO)) {
            if (in == null) {
                throw new IllegalStateException(PIPECONF_P4INFO + " is not on the class path (srv6int-pipeconf)");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses a P4Info in protobuf text format.
     *
     * @param text P4Info text
     * @return index
     * @throws IllegalStateException if the text does not parse
     */
    public static P4InfoIndex parse(String text) {
        P4Info.Builder b = P4Info.newBuilder();
        try {
            TextFormat.merge(text, b);
        } catch (TextFormat.ParseException e) {
            throw new IllegalStateException("P4Info does not parse: " + e.getMessage(), e);
        }
        return new P4InfoIndex(b.build());
    }

    /** @return the P4Info message */
    public P4Info p4info() {
        return p4info;
    }

    /**
     * Looks a table up.
     *
     * @param id PI table id (the P4Info name)
     * @return table
     * @throws IllegalArgumentException if the program has no such table
     */
    public TableInfo table(PiTableId id) {
        TableInfo t = tables.get(id.id());
        if (t == null) {
            throw new IllegalArgumentException("the P4 program has no table " + id.id());
        }
        return t;
    }

    /**
     * Looks an action up.
     *
     * @param id PI action id (the P4Info name)
     * @return action
     * @throws IllegalArgumentException if the program has no such action
     */
    public ActionInfo action(PiActionId id) {
        ActionInfo a = actions.get(id.id());
        if (a == null) {
            throw new IllegalArgumentException("the P4 program has no action " + id.id());
        }
        return a;
    }

    /**
     * Looks an action profile (or selector) up.
     *
     * @param id PI action profile id (the P4Info name)
     * @return P4Runtime id
     * @throws IllegalArgumentException if the program has no such action profile
     */
    public int actionProfileId(PiActionProfileId id) {
        Integer p = profiles.get(id.id());
        if (p == null) {
            throw new IllegalArgumentException("the P4 program has no action profile " + id.id());
        }
        return p;
    }

    /** A table: id, match fields, whether its entries carry a priority. */
    public static final class TableInfo {
        private final Table table;
        private final Map<String, MatchField> fields = new HashMap<>();
        private final boolean needsPriority;

        TableInfo(Table table) {
            this.table = table;
            boolean prio = false;
            for (MatchField f : table.getMatchFieldsList()) {
                fields.put(f.getName(), f);
                MatchField.MatchType k = f.getMatchType();
                prio |= k == MatchField.MatchType.TERNARY || k == MatchField.MatchType.RANGE
                        || k == MatchField.MatchType.OPTIONAL;
            }
            this.needsPriority = prio;
        }

        /** @return P4Runtime id */
        public int id() {
            return table.getPreamble().getId();
        }

        /** @return P4Info name */
        public String name() {
            return table.getPreamble().getName();
        }

        /** @return the P4Info message */
        public Table proto() {
            return table;
        }

        /**
         * P4Runtime requires a priority exactly on tables with a ternary, range or optional field.
         *
         * @return whether entries carry a priority
         */
        public boolean needsPriority() {
            return needsPriority;
        }

        /**
         * Looks a match field up.
         *
         * @param id PI match field id (the P4Info name)
         * @return field: id, bit width, match type
         * @throws IllegalArgumentException if the table has no such field
         */
        public MatchField field(PiMatchFieldId id) {
            MatchField f = fields.get(id.id());
            if (f == null) {
                throw new IllegalArgumentException("table " + name() + " has no match field " + id.id());
            }
            return f;
        }
    }

    /** An action: id and parameters. */
    public static final class ActionInfo {
        private final Action action;
        private final Map<String, Action.Param> params = new HashMap<>();

        ActionInfo(Action action) {
            this.action = action;
            for (Action.Param p : action.getParamsList()) {
                params.put(p.getName(), p);
            }
        }

        /** @return P4Runtime id */
        public int id() {
            return action.getPreamble().getId();
        }

        /** @return P4Info name */
        public String name() {
            return action.getPreamble().getName();
        }

        /** @return number of parameters */
        public int paramCount() {
            return action.getParamsCount();
        }

        /**
         * Looks a parameter up.
         *
         * @param id PI parameter id (the P4Info name)
         * @return parameter: id, bit width
         * @throws IllegalArgumentException if the action has no such parameter
         */
        public Action.Param param(PiActionParamId id) {
            Action.Param p = params.get(id.id());
            if (p == null) {
                throw new IllegalArgumentException("action " + name() + " has no parameter " + id.id());
            }
            return p;
        }
    }
}
