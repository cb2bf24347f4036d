// SPDX-License-Identifier: Apache-2.0
/*
 Stand-ins for the ONOS legacy GUI services that the SRv6-INT overlay calls,
 for the headless-Chromium test harness (harness.html). Each one keeps the
 calling convention of the ONOS 2.7 service it replaces (web/gui/src/main/
 webapp/app/...); see docs/gui.md for exactly what each does and does not do.

   WebSocketService  (fw/remote/websocket.js)  sendEvent/bindHandlers/unbindHandlers;
                     messages from the "server" are injected with harness.deliver()
   TopoOverlayService(view/topo/topoOverlay.js) register, tbSelection, addDetailButton,
                     hooks.escape/emptySelect/singleSelect/multiSelect, showHighlights (same algorithm as ONOS's
                     _showHighlights, over the mini topology drawing below)
   TopoPanelService  (view/topo/topoPanel.js)  displaySingle/addAction/
                     displaySomething/displayNothing with ONOS's detail-panel markup
   FlashService      (fw/layer/flash.js)       flash(text)
   FnService         (fw/util/fn.js)           isF/isO/isA/isS
   KeyService        (fw/util/keys.js)         key names (openBracket, V, 0, esc...)
                     dispatched to the active overlay's keyBindings, as topo.js does
 The topology drawing stands in for topoForce/topoD3: nodes, links, badges
 and suppression classes with ONOS's class names.
 */
(function () {
    'use strict';

    var H = window.harness = {
        sent: [],          // requests the overlay sent (wss.sendEvent)
        flashes: [],       // flash texts
        warnings: [],      // stand-in warnings (unknown elements, unbound events)
        handlers: {},      // bound web-socket handlers
        overlays: {},
        current: null,     // active overlay
        topo: null         // mini topology view
    };

    function warn(msg) {
        H.warnings.push(msg);
        console.warn('harness: ' + msg);
    }

    var fs = {
        isF: function (f) { return typeof f === 'function' ? f : null; },
        isA: function (a) { return Array.isArray(a) ? a : null; },
        isS: function (s) { return typeof s === 'string' ? s : null; },
        isO: function (o) {
            return (o && typeof o === 'object' && !Array.isArray(o)) ? o : null;
        }
    };

    // ---- WebSocketService
    var wss = {
        sendEvent: function (evType, payload) {
            H.sent.push({ event: evType, payload: payload || {} });
        },
        bindHandlers: function (map) {
            Object.keys(map).forEach(function (k) {
                if (H.handlers[k]) {
                    warn('event already bound: ' + k);
                }
                H.handlers[k] = map[k];
            });
        },
        unbindHandlers: function (map) {
            Object.keys(map).forEach(function (k) { delete H.handlers[k]; });
        }
    };

    // a message from the server, dispatched by event type as ONOS's wss does
    H.deliver = function (msg) {
        var h = H.handlers[msg.event];
        if (!h) {
            warn('no handler bound for event: ' + msg.event);
            return;
        }
        h(msg.payload);
    };

    // ---- FlashService
    var flash = {
        flash: function (txt) {
            H.flashes.push(txt);
            document.getElementById('flash').textContent = txt;
        }
    };

    // ---- mini topology view (stand-in for topoForce / topoD3)
    var SVGNS = 'http://www.w3.org/2000/svg';

    function svgEl(parent, tag, attrs) {
        var e = document.createElementNS(SVGNS, tag);
        Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
        parent.appendChild(e);
        return e;
    }

    function Topo(model) {
        var svg = document.querySelector('#ov-topo svg'),
            nodes = {}, links = {}, layerLinks, layerNodes;
        svg.innerHTML = '';
        layerLinks = svgEl(svg, 'g', { 'class': 'topo-links' });
        layerNodes = svgEl(svg, 'g', { 'class': 'topo-nodes' });

        model.devices.forEach(function (d, i) {
            var x = 110 + i * 190, y = 140,
                g = svgEl(layerNodes, 'g', { 'class': 'node device', id: d.id,
                    transform: 'translate(' + x + ',' + y + ')' });
            svgEl(g, 'rect', { x: -20, y: -20, width: 40, height: 40, rx: 6, 'class': 'node-container' });
            svgEl(g, 'text', { y: 36, 'text-anchor': 'middle', 'class': 'label' }).textContent = d.name;
            nodes[d.id] = { id: d.id, el: g, x: x, y: y, type: 'device', off: -20 };
        });
        model.hosts.forEach(function (h) {
            var dev = nodes[h.device], x = dev.x, y = dev.y + 130,
                g = svgEl(layerNodes, 'g', { 'class': 'node host', id: h.id,
                    transform: 'translate(' + x + ',' + y + ')' });
            svgEl(g, 'circle', { r: 16, 'class': 'hostIcon' });
            svgEl(g, 'text', { y: 34, 'text-anchor': 'middle', 'class': 'label' }).textContent = h.name;
            nodes[h.id] = { id: h.id, el: g, x: x, y: y, type: 'host', off: -16 };
        });
        model.links.forEach(function (l) {
            var a = nodes[l.src], b = nodes[l.dst],
                line = svgEl(layerLinks, 'line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y,
                    'class': 'link', id: l.id }),
                label = svgEl(layerLinks, 'text', { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 10,
                    'text-anchor': 'middle', 'class': 'linkLabel' });
            links[l.id] = { id: l.id, key: l.id, el: line, labelEl: label, label: '' };
        });

        function all(o) {
            return Object.keys(o).map(function (k) { return o[k]; });
        }

        // same badge drawing as topoD3.renderBadge
        function renderBadge(n) {
            var old = n.el.querySelector('g.badge'), bdg = n.badge, g, cls;
            if (old) {
                old.remove();
            }
            if (!bdg) {
                return;
            }
            cls = { i: 'badgeInfo', w: 'badgeWarn', e: 'badgeError' }[bdg.status] || 'badgeInfo';
            g = svgEl(n.el, 'g', { 'class': 'badge ' + cls,
                transform: 'translate(' + n.off + ',' + n.off + ')' });
            svgEl(g, 'circle', { r: 15 });
            if (bdg.txt) {
                svgEl(g, 'text', { dy: 5, 'text-anchor': 'middle' }).textContent = bdg.txt;
            }
            if (bdg.msg) {
                svgEl(g, 'title', {}).textContent = bdg.msg;
            }
        }

        // the API topoOverlay.js's _showHighlights uses
        return {
            clearNodeDeco: function () {},
            removeNodeBadges: function () {
                all(nodes).forEach(function (n) { n.badge = null; });
            },
            clearLinkTrafficStyle: function () {
                all(links).forEach(function (l) { l.el.setAttribute('class', 'link'); });
            },
            removeLinkLabels: function () {
                all(links).forEach(function (l) { l.label = ''; });
            },
            findNodeById: function (id) { return nodes[id]; },
            findLinkById: function (id) { return links[id]; },
            supLayers: function (b, less) {
                var cls = less ? 'suppressed' : 'suppressedmax';
                all(nodes).concat(all(links)).forEach(function (x) {
                    x.el.classList.toggle(cls, b);
                });
            },
            unsupNode: function (id, less) {
                nodes[id].el.classList.remove(less ? 'suppressed' : 'suppressedmax');
            },
            unsupLink: function (key, less) {
                links[key].el.classList.remove(less ? 'suppressed' : 'suppressedmax');
            },
            updateNodes: function () {
                all(nodes).forEach(renderBadge);
            },
            updateLinks: function () {
                all(links).forEach(function (l) { l.labelEl.textContent = l.label || ''; });
            }
        };
    }

    H.loadTopology = function (model) {
        H.topo = Topo(model);
    };

    // ---- TopoPanelService (detail panel with ONOS's markup: #topo-p-detail)
    var tps = (function () {
        var det = document.getElementById('topo-p-detail');

        function clear() {
            det.innerHTML = '';
            var hdr = document.createElement('div'),
                body = document.createElement('div'),
                foot = document.createElement('div');
            hdr.className = 'header';
            body.className = 'body';
            foot.className = 'footer';
            det.appendChild(hdr);
            det.appendChild(body);
            det.appendChild(foot);
            return { hdr: hdr, body: body, foot: foot };
        }

        function displaySingle(data) {
            var p = clear(), h2 = document.createElement('h2'),
                table = document.createElement('table'), tbody = document.createElement('tbody'),
                sepLast = false, btns;
            h2.textContent = data.title;
            p.hdr.appendChild(h2);
            table.appendChild(tbody);
            p.body.appendChild(table);
            data.propOrder.forEach(function (k) {
                var tr = document.createElement('tr'), td;
                if (k === '-') {
                    td = document.createElement('td');
                    td.setAttribute('colspan', 2);
                    td.appendChild(document.createElement('hr'));
                    tr.appendChild(td);
                    sepLast = true;
                } else {
                    [['label', String(data.propLabels[k]).replace(/_/g, ' ') + ' :'],
                        ['value', data.propValues[k]]].forEach(function (c) {
                        var cell = document.createElement('td');
                        cell.className = c[0];
                        cell.textContent = c[1];
                        tr.appendChild(cell);
                    });
                    sepLast = false;
                }
                tbody.appendChild(tr);
            });
            if (!sepLast) {
                p.foot.appendChild(document.createElement('hr'));
            }
            btns = document.createElement('div');
            btns.className = 'actionBtns';
            p.foot.appendChild(btns);
        }

        function addAction(o) {
            var wrap = document.createElement('div'), b = document.createElement('div');
            wrap.className = 'actionBtn';
            b.className = 'button';
            b.id = 'topo-p-detail-' + o.id;
            b.title = o.tt;
            b.setAttribute('data-gid', o.gid);
            b.textContent = o.tt;
            b.addEventListener('click', function () { o.cb(); });
            wrap.appendChild(b);
            det.querySelector('.actionBtns').appendChild(wrap);
        }

        return {
            displaySingle: displaySingle,
            addAction: addAction,
            displaySomething: function () { det.style.display = 'block'; },
            displayNothing: function () { det.style.display = 'none'; }
        };
    }());

    // ---- TopoOverlayService
    var tov = (function () {
        function mkGlyphId(oid, gid) {
            return (gid[0] === '*') ? oid + '-' + gid.slice(1) : gid;
        }

        function register(overlay) {
            var id = overlay && overlay.overlayId;
            if (!id) {
                return warn('overlay without overlayId');
            }
            if (H.overlays[id]) {
                return warn('already registered: ' + id);
            }
            overlay.mkGid = function (g) { return mkGlyphId(id, g); };
            overlay.mkId = function (s) { return id + '-' + s; };
            overlay._glyphId = mkGlyphId(id, overlay.glyphId || 'unknown');
            H.overlays[id] = overlay;
        }

        // toolbar radio button pressed: swap overlays as topoToolbar/tov.tbSelection do
        function tbSelection(id) {
            var next = id ? H.overlays[id] : null;
            if (H.current && fs.isF(H.current.deactivate)) {
                H.current.deactivate();
            }
            H.current = next;
            if (next && fs.isF(next.activate)) {
                next.activate();
            }
        }

        function hook(name, arg) {
            var h = H.current && fs.isO(H.current.hooks);
            if (h && fs.isF(h[name])) {
                h[name](arg);
            }
        }

        function addDetailButton(id) {
            var cur = H.current, b = cur && fs.isO(cur.buttons) && fs.isO(cur.buttons[id]);
            if (!b) {
                return warn('no such detail button: ' + id);
            }
            tps.addAction({ id: cur.mkId(id), gid: cur.mkGid(b.gid), cb: b.cb, tt: b.tt });
        }

        // topoOverlay.js _showHighlights over the mini topology view
        function showHighlights(data) {
            var api = H.topo, less;
            api.clearNodeDeco();
            api.removeNodeBadges();
            api.clearLinkTrafficStyle();
            api.removeLinkLabels();
            if (data.subdue) {
                less = data.subdue === 'min';
                api.supLayers(true, less);
            } else {
                api.supLayers(false);
                api.supLayers(false, true);
            }
            data.hosts.concat(data.devices).forEach(function (n) {
                var nd = api.findNodeById(n.id);
                if (!nd) {
                    return warn('HILITE: no node element: ' + n.id);
                }
                nd.badge = n.badge || null;
                if (!n.subdue) {
                    api.unsupNode(nd.id, less);
                }
            });
            data.links.forEach(function (l) {
                var ld = api.findLinkById(l.id);
                if (!ld) {
                    return warn('HILITE: no link element: ' + l.id);
                }
                if (!l.subdue) {
                    api.unsupLink(ld.key, less);
                }
                l.css.split(' ').filter(Boolean).forEach(function (c) { ld.el.classList.add(c); });
                ld.label = l.label;
            });
            api.updateNodes();
            api.updateLinks();
        }

        return {
            register: register,
            tbSelection: tbSelection,
            addDetailButton: addDetailButton,
            mkGlyphId: mkGlyphId,
            hooks: {
                escape: function () {
                    var h = H.current && fs.isO(H.current.hooks);
                    return h && fs.isF(h.escape) ? h.escape() : false;
                },
                emptySelect: function () { hook('empty'); },
                singleSelect: function (data) { hook('single', data); },
                multiSelect: function (order) { hook('multi', order); }
            },
            showHighlights: showHighlights
        };
    }());

    // topoEvent.js routes the server's showHighlights to the overlay service
    wss.bindHandlers({ showHighlights: tov.showHighlights });

    // ---- KeyService: key names as fw/util/keys.js makes them, to the active overlay
    var keyNames = { 27: 'esc', 48: '0', 219: 'openBracket', 221: 'closeBracket' };
    document.addEventListener('keydown', function (ev) {
        var code = ev.keyCode, key = keyNames[code] ||
                (code >= 65 && code <= 90 ? String.fromCharCode(code) : null) ||
                (code >= 48 && code <= 57 ? String.fromCharCode(code) : null),
            kb = H.current && fs.isO(H.current.keyBindings);
        if (key === 'esc') {
            tov.hooks.escape();
            return;
        }
        if (kb && key && kb[key] && fs.isF(kb[key].cb)) {
            kb[key].cb(key);
        }
    });

    angular.module('onosStandins', [])
        .factory('FnService', function () { return fs; })
        .factory('FlashService', function () { return flash; })
        .factory('WebSocketService', function () { return wss; })
        .factory('TopoPanelService', function () { return tps; })
        .factory('TopoOverlayService', function () { return tov; });
}());
