// SPDX-License-Identifier: Apache-2.0
// Headless-Chromium check of the testbed twin's report page (out/index.html, written by
// tools/twin after every run): opened from disk as a reader would (file://, no server), it
// renders, every image loads, every linked file exists and nothing is logged as an error.
// Usage: REPORT=/path/to/out/index.html node --test report.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const report = process.env.REPORT;
const expect = (process.env.REPORT_SCENARIOS || '').split(',').filter(Boolean);
let context, page, userDataDir;
const errors = [];

before(async () => {
    assert.ok(report && fs.existsSync(report), 'REPORT must name an existing index.html, got ' + report);
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'srv6int-report-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        headless: true,
        viewport: { width: 1200, height: 900 },
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
            '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] || await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('requestfailed', (r) => errors.push('failed ' + r.url()));
    await page.goto(pathToFileURL(report).href);
    await page.waitForLoadState('load');
});

after(async () => {
    if (page) {
        await page.screenshot({ path: path.join(path.dirname(report), 'index-screenshot.png'), fullPage: true });
    }
    if (context) {
        await context.close();
    }
    if (userDataDir) {
        fs.rmSync(userDataDir, { recursive: true, force: true });
    }
});

test('the page renders with a section per scenario run', async () => {
    assert.equal(await page.title(), 'SRv6-INT SFC testbed twin: results');
    const ids = await page.$$eval('h2', (hs) => hs.map((h) => h.id));
    for (const s of expect) {
        assert.ok(ids.includes(s), `section ${s} missing: ${ids}`);
    }
    for (const s of ids) {
        const paper = await page.$eval(`#${s} + p.paper`, (p) => p.textContent);
        assert.match(paper, /^Paper: \S/, `${s}: no paper claim beside it`);
    }
});

test('every image loads', async () => {
    const imgs = await page.$$eval('img', (is) => is.map((i) => ({ src: i.src, ok: i.complete && i.naturalWidth > 0 })));
    assert.ok(imgs.length >= expect.length, `only ${imgs.length} images`);
    for (const i of imgs) {
        assert.ok(i.ok, 'image did not load: ' + i.src);
    }
});

test('every linked file exists', async () => {
    const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href')));
    for (const h of hrefs.filter((x) => !x.startsWith('#'))) {
        assert.ok(fs.existsSync(path.join(path.dirname(report), decodeURIComponent(h))), 'dead link ' + h);
    }
});

test('each result table has a row per chain with numbers under every policy', async () => {
    const rows = await page.$$eval('table tr', (trs) => trs.filter((tr) => tr.querySelector('td'))
        .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    assert.ok(rows.length > 0, 'no table rows');
    for (const r of rows) {
        assert.ok(r.length >= 2, 'short row ' + r);
        assert.ok(r.slice(1).some((c) => /^\d/.test(c)), 'row without a number ' + r);
    }
});

test('nothing is logged as an error', () => {
    assert.deepEqual(errors, []);
});
