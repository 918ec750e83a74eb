import { compareLatency } from '../load.mjs';
import { log } from '../progress.mjs';
import { failedRow, kb, measuredRow, NOT_BUILT, notBuilt, probe, round, skippedRow, target } from '../rows.mjs';
import { API, FLOOR_PREFIX } from '../site.mjs';

const floorPath = (bytes) => `${FLOOR_PREFIX}/${bytes}`;

/**
 * A read endpoint against the floor: the same server answering a constant body of the same
 * size. With several paths (rotated by autocannon), the floor rotates over the same sizes.
 */
export async function compareToFloor(server, { id, measure, paths, goal, settings, check }) {
  const answers = [];
  for (const path of paths) answers.push(await probe(`${server.url}${path}`));
  if (answers.some(notBuilt)) return skippedRow({ id, measure, target: goal, note: NOT_BUILT });
  const failed = answers.find((answer) => answer.status !== 200);
  if (failed)
    return failedRow({
      id,
      measure,
      target: goal,
      note: `answered ${failed.status}: ${JSON.stringify(failed.json ?? {}).slice(0, 300)}`,
    });

  const sizes = answers.map((answer) => answer.bytes);
  const floorCheck = await probe(`${server.url}${floorPath(sizes[0])}`);
  if (floorCheck.status !== 200 || floorCheck.bytes !== sizes[0]) {
    return failedRow({
      id,
      measure,
      target: goal,
      note: `the floor endpoint answered ${floorCheck.status} with ${floorCheck.bytes} bytes for ${floorPath(sizes[0])}`,
    });
  }
  const comparison = await compareLatency({
    baseline: { url: server.url, requests: sizes.map((bytes) => ({ method: 'GET', path: floorPath(bytes) })) },
    subject: { url: server.url, requests: paths.map((path) => ({ method: 'GET', path })) },
    duration: settings.duration,
    rounds: settings.rounds,
  });
  const sorted = [...sizes].sort((a, b) => a - b);
  const sizeLabel =
    sizes.length === 1 ? kb(sizes[0]) : `${sizes.length} bodies, median ${kb(sorted[Math.floor(sorted.length / 2)])}`;
  const details = {
    paths: paths.length <= 3 ? paths : [...paths.slice(0, 3), `… ${paths.length} in all`],
    responseBytes:
      sizes.length === 1
        ? sizes[0]
        : { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1) },
    floorMs: roundSummary(comparison.baseline),
    quireMs: roundSummary(comparison.subject),
    oneByOne: comparison.oneByOne,
    ...(check ? check(answers) : {}),
  };
  if (comparison.failures.length) {
    return failedRow({
      id,
      measure,
      target: goal,
      note: `non-2xx answers or errors under load: ${JSON.stringify(comparison.failures).slice(0, 300)}`,
      details,
    });
  }
  const row = measuredRow({
    id,
    measure,
    floor: {
      value: round(comparison.baseline.p50),
      unit: 'ms',
      label: `${fmtMs(comparison.baseline.p50)} p50 (constant body, ${sizeLabel})`,
    },
    quire: { value: round(comparison.subject.p50), unit: 'ms', label: `${fmtMs(comparison.subject.p50)} p50` },
    target: goal,
    details,
  });
  log(
    `   ${measure}: Quire ${fmtMs(comparison.subject.p50)} vs floor ${fmtMs(comparison.baseline.p50)} → ` +
      `${row.ratio}× (${comparison.subject.samples} + ${comparison.baseline.samples} samples)`,
  );
  return row;
}

export const roundSummary = (summary) => ({
  p50: round(summary.p50),
  p90: round(summary.p90),
  p99: round(summary.p99),
  samples: summary.samples,
});
export const fmtMs = (ms) =>
  ms === null ? '—' : ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`;

/** The list filters of the measure, and how many items of the catalog they should return. */
export const LIST_FILTERS = 'kind=page&site=www&localization=complete&published=true';

export async function measureReads({ server, catalog, settings }) {
  const rows = [];
  const fullPages = catalog.items.filter((item) => item.kind === 'page' && Object.keys(item.locales).length === 3);
  const readPaths = fullPages
    .slice(0, 100)
    .flatMap((item) => ['en', 'de', 'fr'].map((locale) => `${API}/content/${item.id}/${locale}`));

  log('reads: GET /content/:id/:locale');
  rows.push(
    await compareToFloor(server, {
      id: 'read-locale',
      measure: 'GET /content/:id/:locale',
      paths: readPaths,
      goal: target.ratioMax(1.3),
      settings,
    }),
  );

  log(`reads: GET /content?${LIST_FILTERS}`);
  rows.push(
    await compareToFloor(server, {
      id: 'list-filtered',
      measure: `GET /content?${LIST_FILTERS}`,
      paths: [`${API}/content?${LIST_FILTERS}`],
      goal: target.ratioMax(2),
      settings,
      check: ([answer]) => ({ items: answer.json?.total }),
    }),
  );

  log('reads: GET /content/needs-review?locale=de');
  rows.push(
    await compareToFloor(server, {
      id: 'needs-review',
      measure: 'GET /content/needs-review?locale=de',
      paths: [`${API}/content/needs-review?locale=de`],
      goal: target.ratioMax(2),
      settings,
      check: ([answer]) => ({ items: answer.json?.total, expectedItems: catalog.staleByLocale.de }),
    }),
  );

  log('reads: GET /untranslated/de');
  rows.push(
    await compareToFloor(server, {
      id: 'untranslated',
      measure: 'GET /untranslated/de',
      paths: [`${API}/untranslated/de`],
      goal: target.ratioMax(2),
      settings,
      check: ([answer]) => ({ items: answer.json?.total, expectedAtMost: catalog.untranslatedByLocale.de }),
    }),
  );

  const asset = catalog.assets[0];
  log(`reads: GET /assets/usage/${asset}`);
  rows.push(
    await compareToFloor(server, {
      id: 'asset-usage',
      measure: 'GET /assets/usage/:path',
      paths: [`${API}/assets/usage/${asset}`],
      goal: target.ratioMax(2),
      settings,
      check: ([answer]) => ({ asset, usages: answer.json?.usage?.length }),
    }),
  );
  for (const row of rows) if (row.status === 'skipped') log(`   ${row.measure}: ${row.note}`);
  return rows;
}
