import fs from 'node:fs/promises';
import path from 'node:path';
import { drive } from '../load.mjs';
import { runProcess, sleep } from '../processes.mjs';
import { log } from '../progress.mjs';
import { failedRow, measuredRow, probe, round, target } from '../rows.mjs';
import { API } from '../site.mjs';

const WRITERS = 8;
const FLOOR_SCRIPT = path.join(import.meta.dirname, '..', '..', 'floor', 'atomic-writes.mjs');

/**
 * 8 autocannon connections, each the only writer of one page (its default locale): every PUT
 * carries the etag the previous answer gave, a new title and content, and a sequence number in
 * meta. Afterwards each page's file on disk must hold the last acknowledged write (or a later
 * one that was sent but whose answer the end of the run cut off).
 * Floor: the same number of loops doing the package's atomic write on files of the same size, in a plain
 * Node process.
 */
export async function measureWrites({ server, catalog, contentRoot, workDir, duration, excludeIds, packageDir }) {
  const measure = `${WRITERS} concurrent writers on distinct items (PUT with etag)`;
  const goal = target.min(500, 'writes/s');
  const pages = catalog.items
    .filter((item) => item.kind === 'page' && item.site === 'www' && !excludeIds.has(item.id))
    .slice(0, WRITERS);
  const writers = [];
  for (const item of pages) {
    const answer = await probe(`${server.url}${API}/content/${item.id}/en`);
    if (answer.status !== 200)
      return failedRow({ id: 'writes', measure, target: goal, note: `could not read ${item.id}: ${answer.status}` });
    writers.push({
      id: item.id,
      file: path.join(contentRoot, item.locales.en.file),
      etag: answer.json.localized.etag,
      visualData: answer.json.localized.content.visualData,
      sent: 0,
      acked: 0,
      ackedCount: 0,
      failures: [],
    });
  }
  const fileBytes = (await fs.stat(writers[0].file)).size;

  let next = 0;
  const setupClient = (client) => {
    const writer = writers[next++ % writers.length];
    client.setRequests([
      {
        method: 'PUT',
        setupRequest(request) {
          const seq = writer.sent + 1;
          writer.sent = seq;
          const title = `Bench write ${seq}`;
          return {
            ...request,
            path: `${API}/content/${writer.id}?locale=en&etag=${encodeURIComponent(writer.etag)}`,
            headers: { 'content-type': 'application/json', origin: server.url },
            body: JSON.stringify({
              meta: { title, benchSeq: seq },
              content: {
                visualData: { ...writer.visualData, root: { props: { ...writer.visualData.root.props, title } } },
              },
            }),
          };
        },
        onResponse(status, body) {
          if (status === 200) {
            writer.etag = JSON.parse(body).etag;
            writer.acked = writer.sent;
            writer.ackedCount++;
          } else if (writer.failures.length < 5) {
            writer.failures.push(`${status} ${String(body).slice(0, 200)}`);
          }
        },
      },
    ]);
  };

  log(`writes: ${WRITERS} writers for ${duration}s`);
  const run = await drive({
    url: server.url,
    connections: WRITERS,
    duration,
    setupClient,
    requests: [{ method: 'GET', path: `${API}/auth/user` }],
  });
  await sleep(200);
  const acknowledged = writers.reduce((sum, writer) => sum + writer.ackedCount, 0);
  const writesPerSecond = acknowledged / run.seconds;

  const verification = [];
  for (const writer of writers) {
    const onDisk = JSON.parse(await fs.readFile(writer.file, 'utf8')).meta.benchSeq;
    const served = await probe(`${server.url}${API}/content/${writer.id}/en`);
    const ok =
      typeof onDisk === 'number' &&
      onDisk >= writer.acked &&
      onDisk <= writer.sent &&
      served.json?.localized?.meta?.benchSeq === onDisk;
    verification.push({
      id: writer.id,
      acknowledged: writer.ackedCount,
      lastAcknowledged: writer.acked,
      lastSent: writer.sent,
      onDisk,
      ok,
      ...(writer.failures.length && { failures: writer.failures }),
    });
  }
  const allOnDisk = verification.every((entry) => entry.ok);

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
