// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import java.util.function.Consumer;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;
import org.onlab.osgi.ServiceDirectory;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.host.HostService;
import org.onosproject.net.link.LinkService;
import org.onosproject.ui.RequestHandler;
import org.onosproject.ui.UiConnection;
import org.onosproject.ui.UiMessageHandler;
import org.onosproject.ui.topo.Highlights;
import org.onosproject.ui.topo.TopoJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Server side of the overlay: answers the overlay's requests (start, stop,
 * select or cycle a chain, show decision history) with topology highlights and
 * details-panel contents, and while the overlay is on, refreshes them
 * periodically so the telemetry stays live.
 */
public class Srv6intTopoMessageHandler extends UiMessageHandler {
    /** Overlay turned on (payload: optional "chainId"). */
    public static final String START = "srv6intTopoStart";
    /** Overlay turned off. */
    public static final String STOP = "srv6intTopoStop";
    /** Select a chain (payload: "chainId"). */
    public static final String SELECT = "srv6intTopoSelect";
    /** Cycle chains (payload: "step", +1 or -1). */
    public static final String CYCLE = "srv6intTopoCycle";
    /** Show the selected chain's decision history (payload: optional "chainId"). */
    public static final String HISTORY = "srv6intTopoHistory";
    /** Server → client: the selected chain's telemetry panel. */
    public static final String CHAIN_DATA = "srv6intTopoChainData";
    /** Server → client: the selected chain's decision history panel. */
    public static final String HISTORY_DATA = "srv6intTopoHistoryData";

    private static final String CHAIN_ID = "chainId";

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final Supplier<List<ChainView>> chains;
    private final long refreshMs;

    private ChainHighlighter highlighter;
    private ChainPanel panel;
    private ScheduledExecutorService timer;
    private ScheduledFuture<?> refresh;

    private boolean active;
    private boolean showingHistory;
    private String selectedId;

    /**
     * Creates the handler.
     *
     * @param chains    current chains, read on every refresh
     * @param refreshMs live refresh period while the overlay is on; 0 for none
     */
    public Srv6intTopoMessageHandler(Supplier<List<ChainView>> chains, long refreshMs) {
        this.chains = Objects.requireNonNull(chains, "chains");
        this.refreshMs = refreshMs;
    }

    @Override
    public void init(UiConnection connection, ServiceDirectory directory) {
        super.init(connection, directory);
        highlighter = new ChainHighlighter(directory.get(LinkService.class), directory.get(HostService.class));
        panel = new ChainPanel(directory.get(DeviceService.class));
    }

    @Override
    public synchronized void destroy() {
        stopTimer();
        super.destroy();
    }

    @Override
    protected Collection<RequestHandler> createRequestHandlers() {
        return ImmutableSet.of(
                new Handler(START, p -> {
                    active = true;
                    showingHistory = false;
                    selectIfGiven(p);
                    startTimer();
                }),
                new Handler(STOP, p -> {
                    active = false;
                    showingHistory = false;
                    stopTimer();
                    sendMessage(TopoJson.highlightsMessage(new Highlights()));
                }),
                new Handler(SELECT, p -> {
                    showingHistory = false;
                    selectIfGiven(p);
                }),
                new Handler(CYCLE, p -> {
                    showingHistory = false;
                    cycle(p.path("step").asInt(1) < 0 ? -1 : 1);
                }),
                new Handler(HISTORY, p -> {
                    selectIfGiven(p);
                    showingHistory = true;
                })
        );
    }

    /** Sends highlights and the panel for the current state (also the timer's job). */
    synchronized void refresh() {
        if (!active) {
            return;
        }
        List<ChainView> all = chains.get();
        int idx = indexOf(all, selectedId);
        if (idx < 0 && !all.isEmpty()) {
            idx = 0;
        }
        ChainView chain = idx < 0 ? null : all.get(idx);
        selectedId = chain == null ? null : chain.id();
        sendMessage(TopoJson.highlightsMessage(highlighter.highlights(all, chain)));
        ObjectNode payload = objectNode();
        payload.put(CHAIN_ID, chain == null ? "" : chain.id());
        payload.put("index", idx);
        payload.put("count", all.size());
        ArrayNode list = payload.putArray("chains");
        for (ChainView c : all) {
            list.addObject().put("id", c.id()).put("name", c.name());
        }
        if (chain != null) {
            payload.set("panel", TopoJson.json(showingHistory
                    ? panel.history(chain) : panel.telemetry(chain, idx, all.size())));
        }
        connection().sendMessage(showingHistory ? HISTORY_DATA : CHAIN_DATA, payload);
    }

    private void selectIfGiven(ObjectNode p) {
        String id = p.path(CHAIN_ID).asText("");
        if (!id.isEmpty()) {
            selectedId = id;
        }
    }

    private void cycle(int step) {
        List<ChainView> all = chains.get();
        if (all.isEmpty()) {
            selectedId = null;
            return;
        }
        int idx = indexOf(all, selectedId);
        idx = idx < 0 ? 0 : Math.floorMod(idx + step, all.size());
        selectedId = all.get(idx).id();
    }

    private static int indexOf(List<ChainView> all, String id) {
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    private void startTimer() {
        if (refreshMs <= 0 || refresh != null) {
            return;
        }
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "srv6int-gui-refresh");
                t.setDaemon(true);
                return t;
            });
        }
        refresh = timer.scheduleAtFixedRate(this::safeRefresh, refreshMs, refreshMs, TimeUnit.MILLISECONDS);
    }

    private void stopTimer() {
        if (refresh != null) {
            refresh.cancel(false);
            refresh = null;
        }
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    private void safeRefresh() {
        try {
            refresh();
        } catch (RuntimeException e) {
            // a failing service must not kill the refresh timer; the next tick retries
            log.warn("srv6int overlay refresh failed: {}", e.toString());
        }
    }

    /** A request handler that updates state, then refreshes the view. */
    private final class Handler extends RequestHandler {
        private final Consumer<ObjectNode> action;

        Handler(String type, Consumer<ObjectNode> action) {
            super(type);
            this.action = action;
        }

        @Override
        public void process(ObjectNode payload) {
            synchronized (Srv6intTopoMessageHandler.this) {
                action.accept(payload == null ? objectNode() : payload);
                refresh();
            }
        }
    }
}
