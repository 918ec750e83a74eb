import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
// The same headless Chromium the browser tests drive (from @sparticuz/chromium, or QUIRE_CHROMIUM_PATH).
import { launchBrowser } from '../../../test/support/browser.ts';
import { median, percentile } from '../load.mjs';
import { log } from '../progress.mjs';
import { failedRow, kb, measuredRow, probe, round, target } from '../rows.mjs';
import { API } from '../site.mjs';
import { fmtMs } from './reads.mjs';

export const ADMIN_PATH = '/__cms';
/** 60 s, or 10 ms a page listed (30,000 at 100k items): the list's JSON grows with the content. */
const readyTimeoutMs = (pages) => Math.max(60_000, pages * 10);

/**
 * Runs in the page before its own scripts: notes the moment (ms since the navigation started)
 * the content browser first holds rendered rows and the item count (not "Loading…"), and the
 * next frame, the one that paints them. The selectors are src/admin/content/ContentBrowser.tsx's.
 */
function watchForList() {
  const ready = () => {
    const count = document.querySelector('.list-status .count')?.textContent ?? '';
    const rows = document.querySelectorAll('.virtual__row').length;
    if (rows === 0 || !/^\d+ items?\b/.test(count)) return;
    observer.disconnect();
    const domMs = performance.now();
    const heading = document.querySelector('#list-title')?.textContent ?? '';
    requestAnimationFrame(() => {
      window.__quireListReady = { domMs, frameMs: performance.now(), count, rows, heading };
    });
  };
  const observer = new MutationObserver(ready);
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

/** When each part of the load had arrived (ms since the navigation started), from the page's resource timing. */
function loadTimings() {
  const [navigation] = performance.getEntriesByType('navigation');
  const resources = performance.getEntriesByType('resource');
  const list = resources.find((entry) => new URL(entry.name).pathname.endsWith('/api/content'));
  return {
    shellMs: navigation?.responseEnd ?? null,
    domContentLoadedMs: navigation?.domContentLoadedEventEnd ?? null,
    listRequestStartMs: list?.requestStart ?? null,
    listResponseEndMs: list?.responseEnd ?? null,
    listBytes: list?.decodedBodySize ?? null,
    assets: resources
      .map((entry) => new URL(entry.name).pathname)
      .filter((pathname) => pathname.includes('/assets/') && /\.(js|css)$/.test(pathname)),
  };
}

/**
 * The admin's files a browser fetched to show the list (the manifest's entry and stylesheets,
 * and any chunk the entry imports statically), raw and gzipped at level 9 as scripts/build-admin.mjs
 * reports them. The server sends them uncompressed.
 */
async function initialFiles(adminDir, fetchedPaths) {
  const manifest = JSON.parse(await fs.readFile(path.join(adminDir, 'manifest.json'), 'utf8'));
  const prefix = `${ADMIN_PATH}/assets/`;
  const fetched = fetchedPaths.filter((pathname) => pathname.startsWith(prefix)).map((p) => p.slice(prefix.length));
  const names = [...new Set([manifest.entry, ...manifest.css, ...fetched])];
  const files = [];
  for (const name of names) {
    const bytes = await fs.readFile(path.join(adminDir, name));
    files.push({ file: name, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length });
  }
  const sum = (kind, key) =>
    files.filter((file) => file.file.endsWith(`.${kind}`)).reduce((total, file) => total + file[key], 0);
  return {
    files,
    jsBytes: sum('js', 'bytes'),
    jsGzipBytes: sum('js', 'gzipBytes'),
    cssBytes: sum('css', 'bytes'),
    cssGzipBytes: sum('css', 'gzipBytes'),
    allFetchedInManifest: fetched.includes(manifest.entry) && manifest.css.every((css) => fetched.includes(css)),
  };
}

/**
 * The admin's content browser on the bench content: a headless Chromium opens `/__cms` (the pages
 * of the first site, www) in a fresh context each run (no cache, no stored site or locale, as an
 * editor's first visit), at 1280×900; timed from the start of the navigation to the frame after
 * the first rows and the item count are in the page. One warm-up load, then `runs` timed ones.
 */
export async function measureAdminList({ server, siteDir, runs }) {
  const id = 'admin-list';
  const goal = target.max(1000, 'ms');
  const expected = await probe(`${server.url}${API}/content?kind=page&site=www`);
  const measure = `admin list in Chromium: /__cms, ${expected.json?.items?.length ?? '?'} pages of www`;
  if (expected.status !== 200 || !Array.isArray(expected.json?.items))
    return failedRow({
      id,
      measure,
      target: goal,
      note: `GET /content?kind=page&site=www answered ${expected.status}`,
    });
  const pages = expected.json.items.length;

  const browser = await launchBrowser();
  const loads = [];
  try {
    for (let run = 0; run <= runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        await context.addInitScript(watchForList);
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (error) => errors.push(error.message));
        const response = await page.goto(`${server.url}${ADMIN_PATH}`);
        if (response?.status() !== 200) throw new Error(`${ADMIN_PATH} answered ${response?.status()}`);
        const ready = await (
          await page.waitForFunction(() => window.__quireListReady, undefined, { timeout: readyTimeoutMs(pages) })
        ).jsonValue();
        const timings = await page.evaluate(loadTimings);
        if (errors.length > 0) throw new Error(`the admin threw: ${errors.join('; ')}`);
        if (run > 0) loads.push({ ...ready, ...timings });
        log(`   ${run === 0 ? 'warm-up' : `run ${run}/${runs}`}: rows and count after ${fmtMs(ready.frameMs)}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }

  const shown = Number(/^(\d+)/.exec(loads[0].count)[1]);
  if (shown !== pages || !loads[0].heading.includes('www'))
    return failedRow({
      id,
      measure,
      target: goal,
      note: `the list showed "${loads[0].count}" under "${loads[0].heading}", the API lists ${pages} pages of www`,
    });
  const assets = await initialFiles(
    path.join(siteDir, 'node_modules', 'astro-quire', 'dist', 'admin'),
    loads[0].assets,
  );
  const frames = loads.map((load) => load.frameMs);
  const listArrived = loads.map((load) => load.listResponseEndMs).filter((ms) => ms !== null);
  const p50 = median(frames);
  const max = percentile(frames, 100);
  const initialGzip = kb(assets.jsGzipBytes + assets.cssGzipBytes);
  log(
    `   admin list: ${fmtMs(p50)} p50, ${fmtMs(max)} max for ${pages} rows; initial JS ${kb(assets.jsGzipBytes)} + CSS ${kb(assets.cssGzipBytes)} gzipped`,
  );
  return measuredRow({
    id,
    measure,
    floor:
      listArrived.length > 0
        ? {
            value: round(median(listArrived), 1),
            unit: 'ms',
            label: `${fmtMs(median(listArrived))} p50: the list's JSON (${kb(loads[0].listBytes ?? 0)}) had arrived`,
          }
        : null,
    quire: {
      value: round(p50, 1),
      unit: 'ms',
      label: `${fmtMs(p50)} p50, ${fmtMs(max)} max (${runs} loads; initial JS + CSS ${initialGzip} gzipped)`,
    },
    // The floor is part of the same load (the list cannot show before its data), not a separate baseline.
    ratio: null,
    target: goal,
    details: {
      runs,
      pages,
      countShown: loads[0].count,
      p50Ms: round(p50, 1),
      maxMs: round(max, 1),
      runsMs: frames.map((ms) => round(ms, 1)),
      rowsRendered: loads.map((load) => load.rows),
      loads: loads.map((load) => ({
        shellMs: round(load.shellMs, 1),
        domContentLoadedMs: round(load.domContentLoadedMs, 1),
        listRequestStartMs: round(load.listRequestStartMs, 1),
        listResponseEndMs: round(load.listResponseEndMs, 1),
        rowsInDomMs: round(load.domMs, 1),
        rowsPaintedMs: round(load.frameMs, 1),
      })),
      listBytes: loads[0].listBytes,
      initial: assets,
    },
  });
}
