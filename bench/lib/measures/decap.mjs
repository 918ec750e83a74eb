import path from 'node:path';
import { compareLatency } from '../load.mjs';
import { childEnv, startProcess } from '../processes.mjs';
import { log } from '../progress.mjs';
import { failedRow, kb, measuredRow, probe, round, target } from '../rows.mjs';
import { API, freePort, waitFor } from '../site.mjs';
import { fmtMs, roundSummary } from './reads.mjs';

/**
 * The peer: Decap CMS's local backend (`decap-server`, an Express app; POST /api/v1 with an
 * action) serving a folder of one markdown file per item, made from the same entries. Listing:
 * Decap's `entriesByFolder` (how Decap lists a folder collection: every file, read whole)
 * against Quire's `GET /content` (every item's manifest), the same number of entries on both.
 * Reading: `getEntry` against `GET /content/:id/en`, rotating over the same 100 items.
 */
export async function measureDecap({ server, catalog, decapDir, repoRoot, settings }) {
  const port = await freePort();
  const decapUrl = `http://127.0.0.1:${port}`;
  const proc = startProcess(
    process.execPath,
    [path.join(repoRoot, 'node_modules', 'decap-server', 'dist', 'index.js')],
    {
      cwd: decapDir,
      env: childEnv({
        PORT: String(port),
        BIND_HOST: '127.0.0.1',
        MODE: 'fs',
        GIT_REPO_DIRECTORY: decapDir,
        LOG_LEVEL: 'error',
        // Its listing of 100k entries is one ~400 MB JSON answer: room for it beyond the default heap.
        NODE_OPTIONS: '--max-old-space-size=8192',
      }),
    },
  );
  const action = (name, params) => ({
    method: 'POST',
    path: '/api/v1',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: name, params: { branch: 'main', ...params } }),
  });
  const rows = [];
  try {
    await waitFor(proc, `${decapUrl}/api/v1`, {
      intervalMs: 100,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'info' }),
      },
    });

    const listId = 'decap-list';
    const listMeasure = `listing ${catalog.items.length} entries vs decap-server`;
    const listing = action('entriesByFolder', { folder: 'entries', extension: 'md', depth: 1 });
    // Above ≈512 MB (V8's longest string) a body is not parsed: the counts are then missing, not the timings.
    const decapList = await probe(`${decapUrl}/api/v1`, {
      method: 'POST',
      headers: listing.headers,
      body: listing.body,
    });
    const quireList = await probe(`${server.url}${API}/content`);
    if (decapList.status !== 200 || quireList.status !== 200) {
      rows.push(
        failedRow({
          id: listId,
          measure: listMeasure,
          target: target.faster(),
          note: `decap ${decapList.status}, Quire ${quireList.status}`,
        }),
      );
    } else {
      log(
        `decap: listing ${catalog.items.length} entries (Decap ${decapList.json?.length} files, ${kb(decapList.bytes)}; ` +
          `Quire ${quireList.json?.total} items, ${kb(quireList.bytes)})`,
      );
      const compared = await compareLatency({
        baseline: { url: decapUrl, requests: [listing] },
        subject: { url: server.url, requests: [{ method: 'GET', path: `${API}/content` }] },
        duration: settings.duration,
        rounds: settings.rounds,
      });
      rows.push(
        peerRow({
          id: listId,
          measure: listMeasure,
          goal: target.faster(),
          compared,
          details: {
            decapEntries: decapList.json?.length,
            decapBytes: decapList.bytes,
            quireItems: quireList.json?.total,
            quireBytes: quireList.bytes,
          },
        }),
      );
    }

    const readIds = catalog.items
      .filter((item) => item.kind === 'page')
      .slice(0, 100)
      .map((item) => item.id);
    const readMeasure = 'reading one entry vs decap-server (info)';
    log(`decap: reading ${readIds.length} entries in turn`);
    const compared = await compareLatency({
      baseline: { url: decapUrl, requests: readIds.map((id) => action('getEntry', { path: `entries/${id}.md` })) },
      subject: { url: server.url, requests: readIds.map((id) => ({ method: 'GET', path: `${API}/content/${id}/en` })) },
      duration: settings.duration,
      rounds: settings.rounds,
    });
    rows.push(
      peerRow({
        id: 'decap-read',
        measure: readMeasure,
        goal: target.none(),
        compared,
        details: { entries: readIds.length },
      }),
    );
  } finally {
    await proc.stop();
  }
  return rows;
}

function peerRow({ id, measure, goal, compared, details }) {
  if (compared.failures.length)
    return failedRow({
      id,
      measure,
      target: goal,
      note: `errors under load: ${JSON.stringify(compared.failures).slice(0, 300)}`,
      details,
    });
  const row = measuredRow({
    id,
    measure,
    floor: {
      value: round(compared.baseline.p50),
      unit: 'ms',
      label: `${fmtMs(compared.baseline.p50)} p50 (decap-server${compared.oneByOne ? `, ${compared.baseline.samples} requests one by one` : ''})`,
    },
    quire: { value: round(compared.subject.p50), unit: 'ms', label: `${fmtMs(compared.subject.p50)} p50` },
    target: goal,
    details: {
      ...details,
      decapMs: roundSummary(compared.baseline),
      quireMs: roundSummary(compared.subject),
      oneByOne: compared.oneByOne,
    },
  });
  log(`   ${measure}: Quire ${fmtMs(compared.subject.p50)} vs decap ${fmtMs(compared.baseline.p50)} → ${row.ratio}×`);
  return row;
}
