import http from 'node:http';
import autocannon from 'autocannon';

/**
 * Load from autocannon, in this process (the servers are separate processes). Autocannon's own
 * histogram keeps whole milliseconds, too coarse for sub-millisecond reads, so every response
 * time it reports (a float, from process.hrtime) is collected here and the percentiles are
 * computed from those.
 */
export async function drive(options) {
  return startDrive(options).finished;
}

/**
 * Starts autocannon without waiting for it: `finished` resolves when `duration` is over, `stop()`
 * ends it early (a background load that lasts as long as the measure running beside it).
 */
export function startDrive({ url, requests, duration, connections = 1, setupClient, timeoutSeconds = 60 }) {
  const latencies = [];
  const statuses = {};
  const instance = autocannon({
    url,
    connections,
    pipelining: 1,
    duration,
    requests,
    timeout: timeoutSeconds,
    ...(setupClient && { setupClient }),
  });
  instance.on('response', (_client, status, _bytes, ms) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const finished = (async () => {
    const result = await instance;
    const bad = Object.entries(statuses).filter(([status]) => Number(status) >= 300);
    return {
      latencies,
      statuses,
      ok: latencies.length,
      bad: bad.reduce((sum, [, count]) => sum + count, 0),
      errors: result.errors,
      timeouts: result.timeouts,
      seconds: result.duration,
    };
  })();
  return {
    finished,
    stop() {
      instance.stop();
      return finished;
    },
  };
}

export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values) => percentile(values, 50);

const MIN_SAMPLES = 9;
const MAX_ROUNDS = 6;
/** Requests each side gets when answers are too slow for timed runs (a 400 MB listing at 100k items). */
const SLOW_SAMPLES = 5;

/**
 * One request of a side (autocannon's request shape), timed to the last byte of its answer. The
 * body is counted and dropped as autocannon does (fetch would also assemble it: tens of ms for a
 * few MB, which would hide the server's own time).
 */
function timeOne({ url, requests }, n) {
  const request = requests[n % requests.length];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${url}${request.path}`,
      { method: request.method ?? 'GET', headers: request.headers, timeout: 600_000 },
      (response) => {
        response.on('data', () => {});
        response.on('end', () => resolve({ ms: performance.now() - started, status: response.statusCode }));
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${request.path}: no answer within 600 s`)));
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/**
 * p50 of `subject` against p50 of `baseline`: a warm-up of each, then `rounds` alternating runs
 * of each (more while either side has fewer than 9 samples), their latencies pooled, so that a
 * slow moment of the machine hits both sides. When one answer takes longer than a quarter of a
 * run, timed runs would cut answers off: then each side gets 5 requests one by one, alternating.
 */
export async function compareLatency({ baseline, subject, duration, rounds = 2, warmup = 0.5 }) {
  // The first answer of each side also warms it up.
  const first = [await timeOne(baseline, 0), await timeOne(subject, 0)];
  const pooled = { baseline: [], subject: [] };
  const failures = [];
  if (Math.max(...first.map((answer) => answer.ms)) > (duration * 1000) / 4) {
    for (let n = 0; n < SLOW_SAMPLES; n++) {
      for (const side of ['baseline', 'subject']) {
        const answer = await timeOne(side === 'baseline' ? baseline : subject, n);
        if (answer.status >= 200 && answer.status < 300) pooled[side].push(answer.ms);
        else failures.push({ side, statuses: { [answer.status]: 1 } });
      }
    }
    return { ...summarize(pooled), failures, oneByOne: true };
  }
  await drive({ ...baseline, duration: warmup });
  await drive({ ...subject, duration: warmup });
  // Slow answers (a 40 MB listing at 10k items) give few samples per run: add rounds until each
  // side has MIN_SAMPLES, within MAX_ROUNDS.
  for (
    let round = 0;
    round < rounds || (Math.min(pooled.baseline.length, pooled.subject.length) < MIN_SAMPLES && round < MAX_ROUNDS);
    round++
  ) {
    for (const side of ['baseline', 'subject']) {
      const run = await drive({ ...(side === 'baseline' ? baseline : subject), duration });
      pooled[side].push(...run.latencies);
      if (run.bad || run.errors || run.timeouts)
        failures.push({ side, statuses: run.statuses, errors: run.errors, timeouts: run.timeouts });
    }
  }
  return { ...summarize(pooled), failures, oneByOne: false };
}

function summarize(pooled) {
  const summary = (latencies) => ({
    p50: median(latencies),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    samples: latencies.length,
  });
  return { baseline: summary(pooled.baseline), subject: summary(pooled.subject) };
}
