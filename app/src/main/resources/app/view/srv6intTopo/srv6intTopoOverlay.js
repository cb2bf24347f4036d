// SPDX-License-Identifier: Apache-2.0
// SRv6-INT SFC topology overlay - client side
//
// Binds the overlay's logic (srv6intTopo.js) to the topology view's overlay
// framework: toolbar glyph, detail-panel buttons, key bindings, hooks.

(function () {
    'use strict';

    // injected refs
    var $log, tov, sts;

    var overlay = {
        // NOTE: must match Srv6intTopoOverlay.OVERLAY_ID
        overlayId: 'srv6int-overlay',
        glyphId: '*sfc',
        tooltip: 'SRv6-INT SFC chains, replicas and vNF latency',

        // installed as 'srv6int-overlay-<name>', referenced here as '*<name>'
        glyphs: {
            sfc: {
                vb: '0 0 110 110',
                d: 'M10,45h20v20h-20z M45,45h20v20h-20z M80,45h20v20h-20z' +
                   'M30,53h15v4h-15z M65,53h15v4h-15z'
            },
            prev: {
                vb: '0 0 110 110',
                d: 'M75,20l-40,35l40,35z'
            },
            next: {
                vb: '0 0 110 110',
                d: 'M35,20l40,35l-40,35z'
            },
            hist: {
                vb: '0 0 110 110',
                d: 'M20,25h70v10h-70z M20,50h70v10h-70z M20,75h70v10h-70z'
            }
        },

        activate: function () {
            sts.start();
            $log.debug('SRv6-INT overlay ACTIVATED');
        },
        deactivate: function () {
            sts.stop();
            $log.debug('SRv6-INT overlay DEACTIVATED');
        },

        // detail panel buttons (added by srv6intTopo.js with tov.addDetailButton)
        buttons: {
            prevChain: {
                gid: '*prev',
                tt: 'Previous chain',
                cb: function () { sts.prevChain(); }
            },
            nextChain: {
                gid: '*next',
                tt: 'Next chain',
                cb: function () { sts.nextChain(); }
            },
            history: {
                gid: '*hist',
                tt: 'Show global loop decision history',
                cb: function () { sts.history(); }
            },
            telemetry: {
                gid: '*sfc',
                tt: 'Show chain telemetry',
                cb: function () { sts.telemetry(); }
            }
        },

        // key bindings (letters the topology view leaves free)
        keyBindings: {
            openBracket: {
                cb: function () { sts.prevChain(); },
                tt: 'Previous chain',
                gid: '*prev'
            },
            closeBracket: {
                cb: function () { sts.nextChain(); },
                tt: 'Next chain',
                gid: '*next'
            },
            V: {
                cb: function () { sts.history(); },
                tt: 'Show loop decision history',
                gid: '*hist'
            },
            0: {
                cb: function () { sts.telemetry(); },
                tt: 'Show chain telemetry',
                gid: '*sfc'
            },

            _keyOrder: [
                'openBracket', 'closeBracket', 'V', '0'
            ]
        },

        hooks: {
            // ESC: back from the history to the telemetry (true = consumed)
            escape: function () {
                return sts.escape();
            },
            // selection changes in the topology view
            empty: function () {
                sts.selectNode(false);
            },
            single: function () {
                sts.selectNode(true);
            },
            multi: function () {
                sts.selectNode(true);
            }
        }
    };

    // register with the overlay service
    angular.module('ovSrv6intTopo')
        .run(['$log', 'TopoOverlayService', 'Srv6intTopoService',

        function (_$log_, _tov_, _sts_) {
            $log = _$log_;
            tov = _tov_;
            sts = _sts_;
            tov.register(overlay);
        }]);

}());
