import fs from 'node:fs/promises';
import path from 'node:path';
import { drive } from '../load.mjs';
import { runProcess } from '../processes.mjs';
import { log } from '../progress.mjs';
import { failedRow, measuredRow, round, target } from '../rows.mjs';
import { prepareWriters, verifyWriters, writeLoad } from '../writers.mjs';

export const WRITERS = 8;
const FLOOR_SCRIPT = path.join(import.meta.dirname, '..', '..', 'floor', 'atomic-writes.mjs');

/**
 * 8 autocannon connections, each the only writer of one page (lib/writers.mjs). Afterwards each
 * page's file on disk must hold the last acknowledged write (or a later one that was sent but
 * whose answer the end of the run cut off).
 * Floor: the same number of loops doing the package's atomic write on files of the same size, in a plain
 * Node process.
 */
export async function measureWrites({ server, catalog, contentRoot, workDir, duration, excludeIds, packageDir }) {
  const measure = `${WRITERS} concurrent writers on distinct items (PUT with etag)`;
  const goal = target.ratioMin(0.5);
  const pages = catalog.items
    .filter((item) => item.kind === 'page' && item.site === 'www' && !excludeIds.has(item.id))
    .slice(0, WRITERS);
  const prepared = await prepareWriters({ server, items: pages, contentRoot });
  if (prepared.error) return failedRow({ id: 'writes', measure, target: goal, note: prepared.error });
  const { writers } = prepared;
  const fileBytes = (await fs.stat(writers[0].file)).size;

  log(`writes: ${WRITERS} writers for ${duration}s`);
  const run = await drive({ ...writeLoad(server, prepared), duration });
  const acknowledged = writers.reduce((sum, writer) => sum + writer.ackedCount, 0);
  const writesPerSecond = acknowledged / run.seconds;

  const { verification, allOnDisk } = await verifyWriters(server, writers);

  log("writes: floor (the package's atomic write in a plain process)");
  const floorRun = await runProcess(
    process.execPath,
    [
      FLOOR_SCRIPT,
      path.join(workDir, 'floor-writes'),
      String(duration),
      String(WRITERS),
      String(fileBytes),
      packageDir,
    ],
    { cwd: workDir, timeoutMs: 120_000 },
  );
  const floor = floorRun.code === 0 ? JSON.parse(floorRun.output.trim().split('\n').at(-1)) : null;
  const floorRate = floor ? floor.writes / floor.seconds : null;

  const details = {
    seconds: round(run.seconds),
    acknowledged,
    statuses: run.statuses,
    errors: run.errors,
    timeouts: run.timeouts,
    fileBytes,
    allOnDisk,
    writers: verification,
    floorWrites: floor,
  };
  log(
    `   ${round(writesPerSecond, 0)} writes/s (floor ${round(floorRate, 0)}), every acknowledged write on disk: ${allOnDisk}`,
  );
  if (!allOnDisk || run.bad > 0 || acknowledged === 0) {
    return failedRow({
      id: 'writes',
      measure,
      target: goal,
      note: !allOnDisk ? 'an acknowledged write is not on disk' : `non-2xx answers: ${JSON.stringify(run.statuses)}`,
      details,
    });
  }
  return measuredRow({
    id: 'writes',
    measure,
    floor:
      floorRate === null
        ? null
        : {
            value: round(floorRate, 0),
            unit: 'writes/s',
            label: `${round(floorRate, 0)} writes/s (atomic write: temp + fsync + rename, ${WRITERS} loops, ${fileBytes} B files)`,
          },
    quire: {
      value: round(writesPerSecond, 0),
      unit: 'writes/s',
      label: `${round(writesPerSecond, 0)} writes/s, ${acknowledged} acknowledged, all on disk`,
    },
    // Higher is better here, so the ratio is Quire's share of the floor's rate.
    ratio: floorRate ? writesPerSecond / floorRate : null,
    target: goal,
    details,
  });
}
