import { counter, log } from '../progress.mjs';
import { failedRow, kb, measuredRow, NOT_BUILT, notBuilt, probe, round, skippedRow, target } from '../rows.mjs';
import { API, memoryUsageMB } from '../site.mjs';
import { random } from '../text.mjs';
import { rssMB } from './upload.mjs';

/** The server's default budget for answers derived from all items (`limits.cacheBytes`). */
const CACHE_BUDGET_MB = 64;
/** What the server may grow by beyond the index and the budget (the answer being built, the heap's slack). */
const SLACK_MB = 64;
const SAMPLE_MS = 20;

/** Every valid combination of the list filters an admin UI offers: kind × site × type × published × localization × locales. */
function allQueries() {
  const queries = [];
  for (const kind of ['', 'page', 'fragment', 'data'])
    for (const site of ['', 'www', 'shop'])
      for (const type of ['', 'visual', 'mdx', 'json'])
        for (const published of ['', 'true', 'false'])
          for (const localization of ['', 'complete', 'partial', 'one'])
            for (const locales of ['', 'en', 'de', 'fr', 'de,fr', 'en,fr']) {
              const params = new URLSearchParams(
                Object.entries({ kind, site, type, published, localization, locales }).filter(([, value]) => value),
              );
              queries.push(params.toString());
            }
  return queries;
}

/** `count` distinct queries in a fixed pseudo-random order (the same in every run). */
function distinctQueries(count) {
  const queries = allQueries();
  const rand = random(19);
  for (let i = queries.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [queries[i], queries[j]] = [queries[j], queries[i]];
  }
  return queries.slice(0, count);
}

/**
 * 1,000 distinct valid `GET /content?…` queries, one after another, right after the index was
 * built, while the server's VmRSS is sampled every 20 ms: its peak must stay within the RSS of
 * the index, the answer cache's budget and 64 MB.
 */
export async function measureListMemory({ server, count = 1000 }) {
  const id = 'list-memory';
  const measure = `RSS after ${count.toLocaleString('en')} distinct valid list queries`;
  const goal = target.ratioMax(1);
  const queries = distinctQueries(count);
  const first = await probe(`${server.url}${API}/content?${queries[0]}`);
  if (notBuilt(first)) return skippedRow({ id, measure, target: goal, note: NOT_BUILT });
  const beforeMB = rssMB(server.pid);
  const heapBefore = await memoryUsageMB(server);
  let peakMB = beforeMB;
  const sampler = setInterval(() => {
    peakMB = Math.max(peakMB, rssMB(server.pid));
  }, SAMPLE_MS);
  const started = performance.now();
  let answeredBytes = 0;
  const progress = counter('queries', count);
  try {
    for (const [n, query] of queries.entries()) {
      progress.tick(n);
      const answer = await probe(`${server.url}${API}/content?${query}`);
      if (answer.status !== 200)
        return failedRow({ id, measure, target: goal, note: `query ${n + 1} (${query}) answered ${answer.status}` });
      answeredBytes += answer.bytes;
    }
  } finally {
    clearInterval(sampler);
    progress.done();
  }
  const seconds = (performance.now() - started) / 1000;
  const afterMB = rssMB(server.pid);
  peakMB = Math.max(peakMB, afterMB);
  const heapAfter = await memoryUsageMB(server);
  const boundMB = round(beforeMB + CACHE_BUDGET_MB + SLACK_MB, 1);
  log(`   ${count} distinct lists in ${seconds.toFixed(1)} s: RSS ${beforeMB} → peak ${peakMB}, after ${afterMB} MB`);
  return measuredRow({
    id,
    measure,
    floor: {
      value: boundMB,
      unit: 'MB',
      label: `${boundMB} MB (index RSS ${beforeMB} MB + ${CACHE_BUDGET_MB} MB cache budget + ${SLACK_MB} MB)`,
    },
    quire: {
      value: peakMB,
      unit: 'MB',
      label:
        `peak ${peakMB} MB, after ${afterMB} MB (${kb(answeredBytes)} of answers in ${seconds.toFixed(1)} s; ` +
        `JS heap used ${heapBefore.heapUsed} → ${heapAfter.heapUsed} MB)`,
    },
    target: goal,
    details: {
      queries: count,
      beforeMB,
      peakMB,
      afterMB,
      answeredBytes,
      seconds: round(seconds, 2),
      memoryUsageBeforeMB: heapBefore,
      memoryUsageAfterMB: heapAfter,
    },
  });
}
