// SPDX-License-Identifier: Apache-2.0
/*
 SRv6-INT SFC topology overlay: "business logic" module.

 Talks to Srv6intTopoMessageHandler (Java) over the GUI web socket:
   requests : srv6intTopoStart, srv6intTopoStop, srv6intTopoSelect,
              srv6intTopoCycle {step: +1|-1}, srv6intTopoHistory {chainId}
   responses: showHighlights (drawn by the topology view itself),
              srv6intTopoChainData / srv6intTopoHistoryData {chainId, index,
              count, chains, panel}, panel being a PropertyPanel as JSON,
              shown in the topology view's details panel.
 */

(function () {
    'use strict';

    // injected refs
    var $log, fs, flash, wss, tps, tov;

    // constants (must match Srv6intTopoMessageHandler.java)
    var startReq = 'srv6intTopoStart',
        stopReq = 'srv6intTopoStop',
        selectReq = 'srv6intTopoSelect',
        cycleReq = 'srv6intTopoCycle',
        historyReq = 'srv6intTopoHistory',
        chainDataEv = 'srv6intTopoChainData',
        historyDataEv = 'srv6intTopoHistoryData',
        onClass = 'srv6int-on',
        // row markers the Java side writes (SlackLevel words, Format.DOWN_TAG/DEAD_TAG)
        rowClasses = {
            '[ok]': 'srv6int-green',
            '[near bound]': 'srv6int-amber',
            '[over bound]': 'srv6int-red',
            '[down]': 'srv6int-red',
            '[dead]': 'srv6int-red'
        },
        allRowClasses = ['srv6int-green', 'srv6int-amber', 'srv6int-red'];

    // internal state
    var active = false,
        chainId = '',
        chainName = '',
        showingHistory = false,
        nodeSelected = false,   // the topology view shows a node's details
        lastPanel = null,
        handlers = {};

    // === ---------------------------
    // === Helper functions

    function topoRoot() {
        return document.getElementById('ov-topo');
    }

    function markTopo(on) {
        var el = topoRoot();
        if (el) {
            el.classList.toggle(onClass, on);
        }
    }

    // colour the vNF rows of the panel like the device badges, and a DOWN
    // chain's state and a dead replica's row red
    function colourRows() {
        var det = document.getElementById('topo-p-detail'),
            cells = det ? det.querySelectorAll('td.value') : [];
        Array.prototype.forEach.call(cells, function (td) {
            var wanted = {};
            Object.keys(rowClasses).forEach(function (tag) {
                if (td.textContent.indexOf(tag) >= 0) {
                    wanted[rowClasses[tag]] = true;
                }
            });
            allRowClasses.forEach(function (cls) {
                td.classList.toggle(cls, !!wanted[cls]);
            });
        });
    }

    function showPanel(panel) {
        tps.displaySingle(panel);
        tov.addDetailButton('prevChain');
        tov.addDetailButton('nextChain');
        tov.addDetailButton(showingHistory ? 'telemetry' : 'history');
        colourRows();
        tps.displaySomething();
    }

    function onData(data, history) {
        if (!active) {
            return;
        }
        showingHistory = history;
        chainId = data.chainId || '';
        if (!data.panel) {
            chainName = '';
            tps.displayNothing();
            flash.flash('No SFC chains');
            return;
        }
        chainName = data.panel.title;
        lastPanel = data.panel;
        // live refreshes must not replace the details of a node the operator selected
        if (!nodeSelected) {
            showPanel(data.panel);
        }
    }

    function onChainData(data) {
        onData(data, false);
    }

    function onHistoryData(data) {
        onData(data, true);
    }

    handlers[chainDataEv] = onChainData;
    handlers[historyDataEv] = onHistoryData;

    // === ---------------------------
    // === Main API functions

    function start() {
        if (active) {
            return;
        }
        active = true;
        showingHistory = false;
        markTopo(true);
        wss.bindHandlers(handlers);
        wss.sendEvent(startReq, {});
        flash.flash('SRv6-INT chains: on');
    }

    function stop() {
        if (!active) {
            return false;
        }
        active = false;
        chainId = '';
        chainName = '';
        lastPanel = null;
        markTopo(false);
        wss.sendEvent(stopReq, {});
        wss.unbindHandlers(handlers);
        tps.displayNothing();
        flash.flash('SRv6-INT chains: off');
        return true;
    }

    function cycle(step) {
        if (active) {
            wss.sendEvent(cycleReq, { step: step });
            flash.flash(step > 0 ? 'Next chain' : 'Previous chain');
        }
    }

    function nextChain() {
        cycle(1);
    }

    function prevChain() {
        cycle(-1);
    }

    function history() {
        if (active && chainId) {
            wss.sendEvent(historyReq, { chainId: chainId });
            flash.flash('Loop decisions: ' + chainName);
        }
    }

    function telemetry() {
        if (active && chainId) {
            wss.sendEvent(selectReq, { chainId: chainId });
            flash.flash('Telemetry: ' + chainName.replace(/ loop decisions$/, ''));
        }
    }

    // selection hooks: a selected node owns the details panel; when the
    // selection is emptied, the chain's panel comes back
    function selectNode(selected) {
        nodeSelected = selected;
        if (!selected && active && lastPanel) {
            showPanel(lastPanel);
        }
    }

    // ESC leaves the history for the telemetry; returns true if consumed
    function escape() {
        if (active && showingHistory) {
            telemetry();
            return true;
        }
        return false;
    }

    // === ---------------------------
    // === Module Factory Definition

    angular.module('ovSrv6intTopo', [])
        .factory('Srv6intTopoService',
        ['$log', 'FnService', 'FlashService', 'WebSocketService',
            'TopoPanelService', 'TopoOverlayService',

        function (_$log_, _fs_, _flash_, _wss_, _tps_, _tov_) {
            $log = _$log_;
            fs = _fs_;
            flash = _flash_;
            wss = _wss_;
            tps = _tps_;
            tov = _tov_;

            return {
                start: start,
                stop: stop,
                nextChain: nextChain,
                prevChain: prevChain,
                history: history,
                telemetry: telemetry,
                escape: escape,
                selectNode: selectNode,
                selectedChain: function () { return chainId; }
            };
        }]);
}());
