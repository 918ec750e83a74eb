import { median } from '../load.mjs';
import { log } from '../progress.mjs';
import { REVIEW_HISTORY_COMMITS } from '../review-history.mjs';
import { failedRow, measuredRow, NOT_BUILT, notBuilt, probe, round, skippedRow, target } from '../rows.mjs';
import { API } from '../site.mjs';
import { fmtMs } from './reads.mjs';

/**
 * `GET /content/:id/de/review` for a page whose English has `REVIEW_HISTORY_COMMITS` commits of
 * history and whose German was reviewed near the start of it: the first call walks the history;
 * the median is of `runs` calls after it.
 */
export async function measureReview({ server, id, runs }) {
  const measure = `GET /content/:id/:locale/review (${REVIEW_HISTORY_COMMITS} commits of history)`;
  const goal = target.max(150, 'ms');
  const url = `${server.url}${API}/content/${encodeURIComponent(id)}/de/review`;
  const firstStarted = performance.now();
  const first = await probe(url);
  const firstMs = performance.now() - firstStarted;
  if (notBuilt(first)) return skippedRow({ id: 'review', measure, target: goal, note: NOT_BUILT });
  const found = first.json?.reviewed?.foundIn;
  if (first.status !== 200 || found?.source !== 'git')
    return failedRow({
      id: 'review',
      measure,
      target: goal,
      note: `answered ${first.status}, found in ${found?.source ?? 'nothing'}: ${JSON.stringify(first.json?.reason ?? first.json?.error ?? {}).slice(0, 300)}`,
    });
  const times = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const answer = await probe(url);
    times.push(performance.now() - started);
    if (answer.status !== 200)
      return failedRow({ id: 'review', measure, target: goal, note: `answered ${answer.status} on run ${run + 1}` });
  }
  const p50 = median(times);
  log(`   review: p50 ${fmtMs(p50)}, first call ${fmtMs(firstMs)}`);
  return measuredRow({
    id: 'review',
    measure,
    floor: null,
    quire: {
      value: round(p50),
      unit: 'ms',
      label: `${fmtMs(p50)} p50 of ${runs} (first call, walking the history: ${fmtMs(firstMs)})`,
    },
    target: goal,
    details: { firstCallMs: round(firstMs), runsMs: times.map((ms) => round(ms)), foundIn: found },
  });
}
