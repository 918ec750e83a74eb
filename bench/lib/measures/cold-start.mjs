import path from 'node:path';
import { median } from '../load.mjs';
import { runProcess } from '../processes.mjs';
import { log } from '../progress.mjs';
import { failedRow, measuredRow, round, target } from '../rows.mjs';
import { API, FLOOR_PREFIX, spawnServer, waitFor } from '../site.mjs';
import { fmtMs } from './reads.mjs';

const FLOOR_SCRIPT = path.join(import.meta.dirname, '..', '..', 'floor', 'parse-all.mjs');

/**
 * Cold start: from spawning `node dist/server/entry.mjs` to the first complete answer of a list
 * (the index is built on the first API request, so the answer waits for the full scan), against
 * a plain Node script that reads and parses every content file (spawn to exit). Runs alternate;
 * the medians are compared.
 */
export async function measureColdStart({ site, contentRoot, catalog, runs }) {
  const measure = 'cold start to the first answered GET /content';
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
    const plain = await runProcess(process.execPath, [FLOOR_SCRIPT, contentRoot], {
      cwd: contentRoot,
      timeoutMs: 300_000,
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
    const split = await runProcess(process.execPath, [FLOOR_SCRIPT, contentRoot, '--no-yaml'], {
      cwd: contentRoot,
      timeoutMs: 300_000,
    });
    if (split.code === 0) floorNoYaml.push(split.ms);

    const server = await spawnServer(site);
    try {
      const first = await waitFor(server, `${server.url}${listPath}`, { intervalMs: 5, timeoutMs: 300_000 });
      quire.push(first.ms);
      listed = JSON.parse(first.body.toString()).total;
    } finally {
      await server.stop();
    }
    // How much of it is the server's own start: the first answer of the floor endpoint, which touches no content.
    const bare = await spawnServer(site);
    try {
      boot.push((await waitFor(bare, `${bare.url}${FLOOR_PREFIX}/64`, { intervalMs: 5, timeoutMs: 300_000 })).ms);
    } finally {
      await bare.stop();
    }
    log(
      `   run ${run + 1}/${runs}: Quire ${fmtMs(quire.at(-1))} (server start alone ${fmtMs(boot.at(-1))}), floor ${fmtMs(floor.at(-1))}`,
    );
  }
  const floorMs = median(floor);
  const quireMs = median(quire);
  return measuredRow({
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
}
