// SPDX-License-Identifier: Apache-2.0
// Headless-Chromium test of the SRv6-INT topology overlay's JavaScript.
// Serves the repository on 127.0.0.1, opens tests/gui/harness.html (ONOS GUI
// stand-ins + the overlay loaded through its js.html/css.html), replays the
// messages the Java side really produces (tests/gui/fixtures/testbed-messages.json,
// kept up to date by GuiFixtureTest) and checks what the overlay draws and sends.
// Writes screenshots to app/target/gui/ for people to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const fixture = JSON.parse(fs.readFileSync(path.join(here, 'fixtures', 'testbed-messages.json'), 'utf8'));
const shots = path.join(repo, 'app', 'target', 'gui');
const step = (name) => {
    const s = fixture.steps.find((x) => x.name === name);
    assert.ok(s, 'fixture step missing: ' + name);
    return s;
};
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

let server, context, page, userDataDir;

before(async () => {
    server = http.createServer((req, res) => {
        const p = path.normalize(path.join(repo, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
        if (!p.startsWith(repo + path.sep) || !fs.existsSync(p) || fs.statSync(p).isDirectory()) {
            res.writeHead(404).end();
            return;
        }
        res.writeHead(200, { 'Content-Type': TYPES[path.extname(p)] || 'application/octet-stream' });
        fs.createReadStream(p).pipe(res);
    });
    await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'srv6int-gui-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        headless: true,
        viewport: { width: 1280, height: 470 },
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] || await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('response', (r) => { if (r.status() >= 400) errors.push(r.status() + ' ' + r.url()); });
    page.errors = errors;
    await page.goto(`http://127.0.0.1:${server.address().port}/tests/gui/harness.html`);
    await page.waitForFunction(() => window.harness && (window.harness.ready || window.harness.error));
    assert.equal(await page.evaluate(() => window.harness.error || null), null);
    await page.evaluate((t) => window.harness.loadTopology(t), fixture.topology);
    fs.mkdirSync(shots, { recursive: true });
});

after(async () => {
    if (context) await context.close();
    if (server) server.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
});

// what the page shows: badges, link styles, suppression, panel, requests sent
const view = () => page.evaluate(() => {
    const out = { nodes: {}, links: {}, panel: null, sent: window.harness.sent.slice(),
        flashes: window.harness.flashes.slice(), warnings: window.harness.warnings.slice() };
    document.querySelectorAll('#ov-topo g.node').forEach((g) => {
        const b = g.querySelector('g.badge');
        out.nodes[g.id] = {
            suppressed: g.classList.contains('suppressed'),
            badge: b ? { cls: b.getAttribute('class'), txt: b.querySelector('text')?.textContent,
                msg: b.querySelector('title')?.textContent,
                fill: getComputedStyle(b.querySelector('circle')).fill } : null,
        };
    });
    document.querySelectorAll('#ov-topo line.link').forEach((l) => {
        out.links[l.id] = { cls: l.getAttribute('class'), label: l.nextSibling.textContent };
    });
    const det = document.getElementById('topo-p-detail');
    if (det.style.display === 'block') {
        out.panel = {
            title: det.querySelector('h2').textContent,
            rows: Object.fromEntries([...det.querySelectorAll('tr')].filter((tr) => tr.cells.length === 2)
                .map((tr) => [tr.cells[0].textContent, { value: tr.cells[1].textContent,
                    cls: tr.cells[1].className, color: getComputedStyle(tr.cells[1]).color }])),
            buttons: [...det.querySelectorAll('.actionBtn .button')].map((b) => b.id),
        };
    }
    return out;
});
const deliver = (s) => page.evaluate((msgs) => msgs.forEach((m) => window.harness.deliver(m)), s.messages);
const lastSent = async () => (await view()).sent.at(-1);
const GREEN = 'rgb(46, 157, 66)', AMBER = 'rgb(240, 160, 32)', RED = 'rgb(217, 48, 44)';

// every device/host highlight in a showHighlights message is drawn as ONOS would
function assertDrawn(v, hl) {
    for (const n of hl.devices.concat(hl.hosts)) {
        const drawn = v.nodes[n.id];
        assert.ok(drawn, 'node drawn: ' + n.id);
        assert.equal(drawn.suppressed, !!n.subdue, 'suppression of ' + n.id);
        if (n.badge) {
            const cls = { i: 'badgeInfo', w: 'badgeWarn', e: 'badgeError' }[n.badge.status];
            assert.equal(drawn.badge.cls, 'badge ' + cls, n.id);
            assert.equal(drawn.badge.txt, n.badge.txt, n.id);
            assert.equal(drawn.badge.msg, n.badge.msg, n.id);
        } else {
            assert.equal(drawn.badge, null, n.id);
        }
    }
    for (const l of hl.links) {
        assert.equal(v.links[l.id].cls, ('link ' + l.css).trim(), l.id);
        assert.equal(v.links[l.id].label, l.label, l.id);
    }
}

test('overlay registers with the id the Java side uses', async () => {
    const ids = await page.evaluate(() => Object.keys(window.harness.overlays));
    assert.deepEqual(ids, [fixture.overlayId]);
    const kb = await page.evaluate((id) => window.harness.overlays[id].keyBindings._keyOrder, fixture.overlayId);
    assert.deepEqual(kb, ['openBracket', 'closeBracket', 'V', '0']);
});

test('activating the overlay starts it and draws SFC 1 before the replica', async () => {
    await page.evaluate((id) => window.harness.topo && window.harness.overlays[id] &&
        angular.element(document.body).injector().get('TopoOverlayService').tbSelection(id), fixture.overlayId);
    const s = step('start, before replica');
    assert.deepEqual(await lastSent(), s.request);
    await deliver(s);
    const v = await view();
    assertDrawn(v, s.messages[0].payload);
    // paper testbed before scale-out: Snort (SFC 2) on Worker 1 is over its bound at SW2
    assert.equal(v.nodes['device:sw2'].badge.txt, '720%');
    assert.equal(v.nodes['device:sw2'].badge.fill, RED);
    assert.equal(v.nodes['device:sw3'].badge.txt, '88%');
    assert.equal(v.nodes['device:sw3'].badge.fill, AMBER);
    assert.equal(v.nodes['device:sw1'].badge, null);
    assert.match(v.links['device:sw1/2-device:sw2/1'].cls, /primary animated/);
    assert.equal(v.links['device:sw1/2-device:sw2/1'].label, '122.1 kpps');
    assert.equal(v.panel.title, 'SFC 1');
    assert.equal(v.panel.rows['Path :'].value, 'SW1 → SW2 → SW3 → SW4');
    assert.equal(v.panel.rows['Throughput :'].value, '122.1 kpps');
    assert.equal(v.panel.rows['E2E p95 :'].value, '1.45 ms');
    assert.equal(v.panel.rows['Replicas :'].value, '2');
    assert.equal(v.panel.rows['Last decision :'].value, '10:00:02 HOLD 1/1: succeeded; L_i below Lmax_i');
    assert.equal(v.panel.rows['1/1 (nDPI) :'].cls, 'value srv6int-amber');
    assert.deepEqual(v.panel.buttons, ['topo-p-detail-srv6int-overlay-prevChain',
        'topo-p-detail-srv6int-overlay-nextChain', 'topo-p-detail-srv6int-overlay-history']);
    assert.ok(v.flashes.includes('SRv6-INT chains: on'));
    await page.screenshot({ path: path.join(shots, 'overlay-before.png') });
});

test("']' cycles to SFC 2, whose Snort is over its bound", async () => {
    await page.keyboard.press(']');
    const s = step('next chain, before replica');
    assert.deepEqual(await lastSent(), s.request);
    await deliver(s);
    const v = await view();
    assertDrawn(v, s.messages[0].payload);
    assert.equal(v.panel.title, 'SFC 2');
    assert.equal(v.panel.rows['Replicas :'].value, '1');
    assert.equal(v.panel.rows['2/0 (Snort) :'].cls, 'value srv6int-red');
    assert.equal(v.panel.rows['2/0 (Snort) :'].color, RED);
    assert.equal(v.nodes['00:00:00:00:02:01/None'].badge.txt, '1');
    assert.equal(v.nodes['00:00:00:00:03:01/None'].badge, null, 'no SFC 2 replica on Worker 2 yet');
});

test('live refresh after the replica: SW2 turns green, panel shows the scale-out', async () => {
    const s = step('live refresh, after replica');
    const sentBefore = (await view()).sent.length;
    await deliver(s);
    const v = await view();
    assert.equal(v.sent.length, sentBefore, 'a server push needs no request');
    assertDrawn(v, s.messages[0].payload);
    assert.equal(v.nodes['device:sw2'].badge.txt, '61%');
    assert.equal(v.nodes['device:sw2'].badge.fill, GREEN);
    assert.equal(v.nodes['device:sw3'].badge.fill, AMBER);
    assert.equal(v.nodes['00:00:00:00:03:01/None'].badge.txt, '1');
    assert.match(v.nodes['00:00:00:00:03:01/None'].badge.msg, /snort-1/);
    assert.equal(v.panel.rows['Replicas :'].value, '2');
    assert.equal(v.panel.rows['Segment lists :'].value, '2');
    assert.equal(v.panel.rows['Last decision :'].value,
        '10:00:29 SCALE_OUT 2/0: 1 → 2 replicas, succeeded; n = ceil(C_i / C*_i) = 2, new replica on worker-2');
    assert.equal(v.panel.rows['2/0 (Snort) :'].cls, 'value srv6int-green');
    await page.screenshot({ path: path.join(shots, 'overlay.png') });
});

test("'V' shows the decision history; ESC returns to the telemetry", async () => {
    await page.keyboard.press('V');
    let s = step('decision history, after replica');
    assert.deepEqual(await lastSent(), s.request);
    await deliver(s);
    let v = await view();
    assert.equal(v.panel.title, 'SFC 2 loop decisions');
    assert.equal(v.panel.rows['10:00:29 :'].value,
        'SCALE_OUT 2/0: 1 → 2 replicas, succeeded; n = ceil(C_i / C*_i) = 2, new replica on worker-2');
    assert.equal(v.panel.rows['10:00:25 :'].value, 'HOLD 2/0: succeeded; over Lmax_i for 0.0 s < t̂ 4 s');
    assert.ok(v.panel.buttons.includes('topo-p-detail-srv6int-overlay-telemetry'));
    await page.screenshot({ path: path.join(shots, 'overlay-history.png') });

    await page.keyboard.press('Escape');
    s = step('back to telemetry, after replica');
    assert.deepEqual(await lastSent(), s.request);
    await deliver(s);
    v = await view();
    assert.equal(v.panel.title, 'SFC 2');
});

test("selecting a switch keeps its details against live refreshes; deselecting brings the chain back", async () => {
    // what topoSelect.js does for a single selection: device details, then the overlay's hook
    await page.evaluate(() => {
        const inj = angular.element(document.body).injector();
        inj.get('TopoPanelService').displaySingle({ title: 'SW2', propOrder: ['id'],
            propLabels: { id: 'ID' }, propValues: { id: 'device:sw2' } });
        inj.get('TopoOverlayService').hooks.singleSelect({ id: 'device:sw2', type: 'device' });
    });
    await deliver(step('back to telemetry, after replica'));  // a live refresh arrives
    assert.equal((await view()).panel.title, 'SW2');
    await page.evaluate(() => angular.element(document.body).injector().get('TopoOverlayService').hooks.emptySelect());
    const v = await view();
    assert.equal(v.panel.title, 'SFC 2');
    assert.equal(v.panel.buttons.length, 3);
});

test("the panel's previous-chain button cycles back to SFC 1", async () => {
    await page.click('#topo-p-detail-srv6int-overlay-prevChain');
    const s = step('previous chain, after replica');
    assert.deepEqual(await lastSent(), s.request);
    await deliver(s);
    const v = await view();
    assertDrawn(v, s.messages[0].payload);
    assert.equal(v.panel.title, 'SFC 1');
});

test('a DOWN chain gets a red DOWN badge on its ingress with the reason and last hop seen', async () => {
    const s = step('live refresh, after failures');
    await deliver(s);
    const v = await view();
    assertDrawn(v, s.messages[0].payload);
    const b = v.nodes['device:sw1'].badge;
    assert.ok(b, 'SFC 1 is DOWN: its ingress SW1 has a badge');
    assert.equal(b.cls, 'badge badgeError');
    assert.equal(b.txt, 'DOWN');
    assert.equal(b.fill, RED);
    assert.match(b.msg, /^SFC 1 DOWN since 10:00:43 \[down\]: ingress classified traffic but no INT report/);
    assert.match(b.msg, /last hop seen: vNF 0 \(fwd-0 at device:sw2\/3\)$/);
    assert.equal(v.panel.title, 'SFC 1');
    assert.match(v.panel.rows['State :'].value, /^DOWN since 10:00:43 \[down\]: .*last hop seen: vNF 0/);
    assert.equal(v.panel.rows['State :'].cls, 'value srv6int-red');
    assert.equal(v.panel.rows['State :'].color, RED);
    assert.match(v.panel.rows['Last decision :'].value, /^10:00:43 CHAIN_DOWN 1\/1: failed/);
    await page.screenshot({ path: path.join(shots, 'overlay-down.png') });
});

test("']' to SFC 2: its dead replica is marked in the panel and on its worker's badge", async () => {
    await page.keyboard.press(']');
    const s = step('next chain, after failures');
    assert.deepEqual(await lastSent(), s.request);
    await deliver(s);
    const v = await view();
    assertDrawn(v, s.messages[0].payload);
    assert.equal(v.panel.title, 'SFC 2');
    assert.equal(v.panel.rows['State :'].value, 'UP since 10:00:02');
    assert.equal(v.panel.rows['State :'].cls, 'value');
    const reps = v.panel.rows['  replicas :'];
    assert.ok(reps, 'replicas row: ' + Object.keys(v.panel.rows));
    assert.match(reps.value, /snort-0@worker-1 DEAD w0 \[dead\]/);
    assert.equal(reps.cls, 'value srv6int-red');
    const w1 = v.nodes['00:00:00:00:02:01/None'].badge;
    assert.equal(w1.cls, 'badge badgeError');
    assert.equal(w1.msg, 'SFC 2 replicas on worker-1: snort-0 [dead]');
    assert.equal(v.nodes['device:sw1'].badge.txt, 'DOWN', 'SFC 1 is still DOWN');
});

test('deactivating the overlay stops it and clears the view', async () => {
    await page.evaluate(() => angular.element(document.body).injector().get('TopoOverlayService').tbSelection(null));
    const s = step('stop');
    assert.deepEqual(await lastSent(), s.request);
    await deliver(s);
    const v = await view();
    assert.equal(v.panel, null);
    for (const n of Object.values(v.nodes)) {
        assert.equal(n.badge, null);
        assert.equal(n.suppressed, false);
    }
    for (const l of Object.values(v.links)) assert.equal(l.cls, 'link');
    // handlers are unbound: a late chain update is not drawn
    await page.evaluate((m) => window.harness.deliver(m), step('start, before replica').messages[1]);
    assert.equal((await view()).panel, null);
    assert.deepEqual((await view()).warnings, ['no handler bound for event: srv6intTopoChainData']);
    assert.deepEqual(page.errors, []);
});
