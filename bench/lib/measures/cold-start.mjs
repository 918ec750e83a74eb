import path from 'node:path';
import { median } from '../load.mjs';
import { runProcess } from '../processes.mjs';
import { log } from '../progress.mjs';
import { failedRow, measuredRow, round, target } from '../rows.mjs';
import { API, FLOOR_PREFIX, LOOP_DELAY_PATH, spawnServer, waitFor } from '../site.mjs';
import { fmtMs } from './reads.mjs';

const FLOOR_SCRIPT = path.join(import.meta.dirname, '..', '..', 'floor', 'parse-all.mjs');
/** The floor keeps every parsed file, as an index would: about 5× the text in memory, ≈5 GB at 100k items: more than Node's default heap (≈4 GB). */
const FLOOR_HEAP = ['--max-old-space-size=12288'];

/**
 * Cold start: from spawning `node dist/server/entry.mjs` to the first complete answer of a list
 * (the index is built on the first API request, so the answer waits for the full scan), against
 * a plain Node script that reads and parses every content file (spawn to exit). Runs alternate;
 * the medians are compared.
 */
export async function measureColdStart({ site, contentRoot, catalog, runs }) {
  const measure = 'cold start to the first answered GET /content';
  // 300 s, or 10 ms an item: a cold start reads every file, so it grows with the content.
  const timeoutMs = Math.max(300_000, catalog.items.length * 10);
  const goal = target.ratioMax(1.5);
  const listPath = `${API}/content?localization=one`;
  const expected = catalog.items.filter((item) => Object.keys(item.locales).length === 1).length;
  const floor = [];
  const floorNoYaml = [];
  const quire = [];
  const boot = [];
  let floorFiles;
  let listed;
  for (let run = 0; run < runs; run++) {
    const plain = await runProcess(process.execPath, [...FLOOR_HEAP, FLOOR_SCRIPT, contentRoot], {
      cwd: contentRoot,
      timeoutMs,
    });
    if (plain.code !== 0)
      return failedRow({
        id: 'cold-start',
        measure,
        target: goal,
        note: `floor script failed: ${plain.output.slice(-500)}`,
      });
    floor.push(plain.ms);
    floorFiles = JSON.parse(plain.output.trim().split('\n').at(-1)).files;
    const split = await runProcess(process.execPath, [...FLOOR_HEAP, FLOOR_SCRIPT, contentRoot, '--no-yaml'], {
      cwd: contentRoot,
      timeoutMs,
    });
    if (split.code === 0) floorNoYaml.push(split.ms);

    const server = await spawnServer(site);
    try {
      const first = await waitFor(server, `${server.url}${listPath}`, { intervalMs: 5, timeoutMs });
      quire.push(first.ms);
      listed = JSON.parse(first.body.toString()).total;
    } finally {
      await server.stop();
    }
    // How much of it is the server's own start: the first answer of the floor endpoint, which touches no content.
    const bare = await spawnServer(site);
    try {
      boot.push((await waitFor(bare, `${bare.url}${FLOOR_PREFIX}/64`, { intervalMs: 5, timeoutMs })).ms);
    } finally {
      await bare.stop();
    }
    log(
      `   run ${run + 1}/${runs}: Quire ${fmtMs(quire.at(-1))} (server start alone ${fmtMs(boot.at(-1))}), floor ${fmtMs(floor.at(-1))}`,
    );
  }
  const floorMs = median(floor);
  const quireMs = median(quire);
  const ratioRow = measuredRow({
    id: 'cold-start',
    measure,
    floor: {
      value: round(floorMs, 1),
      unit: 'ms',
      label: `${fmtMs(floorMs)} (read + parse ${floorFiles} files, median of ${runs})`,
    },
    quire: {
      value: round(quireMs, 1),
      unit: 'ms',
      label: `${fmtMs(quireMs)} (median of ${runs}; the server's start alone: ${fmtMs(median(boot))})`,
    },
    target: goal,
    details: {
      listPath,
      itemsListed: listed,
      expectedItems: expected,
      floorRunsMs: floor.map((ms) => round(ms, 1)),
      floorWithoutYamlRunsMs: floorNoYaml.map((ms) => round(ms, 1)),
      quireRunsMs: quire.map((ms) => round(ms, 1)),
      serverStartRunsMs: boot.map((ms) => round(ms, 1)),
      serverStartMedianMs: round(median(boot), 1),
    },
  });
  return [ratioRow, await measureColdStartStall({ site, listPath, timeoutMs })];
}

/**
 * The server's longest event-loop stall from its first answer to the first answered list, in one
 * more cold start: the stall monitor (lib/site.mjs) read once the server answers at all (which
 * resets it: what came before is the server's own boot), then `GET /auth/user` (the API's modules
 * load on the first API request) and the monitor, then the first `GET /content` (which builds the
 * index) and the monitor again. The row is the longer of the two; the details keep them apart.
 */
async function measureColdStartStall({ site, listPath, timeoutMs }) {
  const server = await spawnServer(site);
  const monitor = async () =>
    JSON.parse((await waitFor(server, `${server.url}${LOOP_DELAY_PATH}`, { timeoutMs })).body.toString());
  let boot;
  let modules;
  let index;
  let firstMs;
  try {
    boot = await monitor();
    const started = performance.now();
    await waitFor(server, `${server.url}${API}/auth/user`, { timeoutMs });
    modules = await monitor();
    await waitFor(server, `${server.url}${listPath}`, { timeoutMs });
    index = await monitor();
    firstMs = performance.now() - started;
  } finally {
    await server.stop();
  }
  const stallMs = Math.max(modules.maxMs, index.maxMs);
  log(
    `   longest event-loop stall of a cold start: ${fmtMs(stallMs)} (the API's first request ${fmtMs(modules.maxMs)}, ` +
      `building the index ${fmtMs(index.maxMs)}; the server's own boot before them ${fmtMs(boot.maxMs)})`,
  );
  return measuredRow({
    id: 'cold-start-stall',
    measure: 'longest event-loop stall during a cold start',
    floor: null,
    quire: {
      value: round(stallMs),
      unit: 'ms',
      label:
        `${fmtMs(stallMs)} (monitorEventLoopDelay in the server over ${fmtMs(firstMs)} to the first answered GET /content: ` +
        `the API's first request ${fmtMs(modules.maxMs)}, building the index ${fmtMs(index.maxMs)})`,
    },
    target: target.max(50, 'ms'),
    details: {
      listPath,
      firstAnswerMs: round(firstMs, 1),
      stallMs: round(stallMs),
      firstApiRequestStallMs: round(modules.maxMs),
      indexBuildStallMs: round(index.maxMs),
      indexBuildP99Ms: round(index.p99Ms),
      samples: modules.samples + index.samples,
      bootStallMs: round(boot.maxMs),
    },
  });
}
