import { git } from '../git.mjs';
import { median } from '../load.mjs';
import { log } from '../progress.mjs';
import { failedRow, measuredRow, NOT_BUILT, notBuilt, probe, round, skippedRow, target } from '../rows.mjs';
import { API, LOOP_DELAY_PATH } from '../site.mjs';
import { fmtMs } from './reads.mjs';

/** The server's longest event-loop stall (ms) since the last read; a read also starts a new period. */
async function loopStallMs(server) {
  const answer = await probe(`${server.url}${LOOP_DELAY_PATH}`);
  if (answer.status !== 200) throw new Error(`${LOOP_DELAY_PATH} answered ${answer.status}`);
  return answer.json.maxMs;
}

/**
 * `GET /git/status` against native `git status --porcelain` on the same repository (one commit,
 * then 10 files changed): one warm-up each, then `runs` timed runs each, alternating; medians.
 * Native git is timed from spawn to exit.
 */
export async function measureGitStatus({ server, contentRoot, runs }) {
  const id = 'git-status';
  const measure = 'GET /git/status (10 changed files)';
  const goal = target.ratioMax(2);
  const url = `${server.url}${API}/git/status`;
  await loopStallMs(server);
  const firstStarted = performance.now();
  const first = await probe(url);
  const firstMs = performance.now() - firstStarted;
  const stalls = [await loopStallMs(server)];
  if (notBuilt(first)) return skippedRow({ id, measure, target: goal, note: NOT_BUILT });
  if (first.status !== 200)
    return failedRow({
      id,
      measure,
      target: goal,
      note: `answered ${first.status}: ${JSON.stringify(first.json ?? {}).slice(0, 300)}`,
    });

  await git(contentRoot, ['status', '--porcelain']);
  const native = [];
  const quire = [];
  let lines = 0;
  let status;
  for (let run = 0; run < runs; run++) {
    const result = await git(contentRoot, ['status', '--porcelain']);
    native.push(result.ms);
    lines = result.output.split('\n').filter(Boolean).length;
    await loopStallMs(server);
    const started = performance.now();
    const answer = await probe(url);
    quire.push(performance.now() - started);
    stalls.push(await loopStallMs(server));
    if (answer.status !== 200)
      return failedRow({ id, measure, target: goal, note: `answered ${answer.status} on run ${run + 1}` });
    status = answer.json;
  }
  const nativeMs = median(native);
  const quireMs = median(quire);
  const stallMs = Math.max(...stalls);
  log(
    `   git status: Quire ${fmtMs(quireMs)} vs native ${fmtMs(nativeMs)}; longest event-loop stall ${fmtMs(stallMs)}`,
  );
  const ratioRow = measuredRow({
    id,
    measure,
    floor: {
      value: round(nativeMs),
      unit: 'ms',
      label: `${fmtMs(nativeMs)} (native git status --porcelain, median of ${runs})`,
    },
    quire: {
      value: round(quireMs),
      unit: 'ms',
      label: `${fmtMs(quireMs)} (median of ${runs}; first call ${fmtMs(firstMs)})`,
    },
    target: goal,
    details: {
      firstCallMs: round(firstMs),
      nativeRunsMs: native.map((ms) => round(ms)),
      quireRunsMs: quire.map((ms) => round(ms)),
      nativeChangedLines: lines,
      quireStatus: status,
    },
  });
  const stallRow = measuredRow({
    id: 'git-status-stall',
    measure: 'longest event-loop stall during GET /git/status',
    floor: null,
    quire: {
      value: round(stallMs),
      unit: 'ms',
      label: `${fmtMs(stallMs)} (monitorEventLoopDelay in the server, over the first call and ${runs} more)`,
    },
    target: target.max(50, 'ms'),
    details: { stallsMs: stalls.map((ms) => round(ms)) },
  });
  return [ratioRow, stallRow];
}
