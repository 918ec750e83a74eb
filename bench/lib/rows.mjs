/**
 * One result row per measure: the floor, Quire, their ratio and the target, in the same shape
 * for RESULTS.md and results.json.
 */

/** Targets: `ratio-max` (Quire/floor ≤ value), `ratio-min` (Quire/floor ≥ value: a rate), `max` (Quire's own figure), `faster` (Quire/peer < 1), `none`. */
export const target = {
  ratioMax: (value) => ({ kind: 'ratio-max', value, text: `≤ ${value}× floor` }),
  ratioMin: (value) => ({ kind: 'ratio-min', value, text: `≥ ${value}× floor` }),
  max: (value, unit) => ({ kind: 'max', value, text: `≤ ${value} ${unit}` }),
  faster: () => ({ kind: 'faster', value: 1, text: 'faster (lower p50)' }),
  none: () => ({ kind: 'none', value: null, text: '—' }),
};

function isMet(row) {
  const { kind, value } = row.target;
  if (row.status !== 'measured' || kind === 'none') return null;
  if (kind === 'ratio-max') return row.ratio !== null && row.ratio <= value;
  if (kind === 'ratio-min') return row.ratio !== null && row.ratio >= value;
  if (kind === 'faster') return row.ratio !== null && row.ratio < value;
  if (kind === 'max') return row.quire.value !== null && row.quire.value <= value;
  return null;
}

export function measuredRow({ id, measure, floor, quire, ratio, target: goal, note, details }) {
  const computedRatio =
    ratio !== undefined
      ? ratio
      : floor?.value && quire?.value !== null && quire?.value !== undefined
        ? quire.value / floor.value
        : null;
  const row = {
    id,
    measure,
    status: 'measured',
    floor,
    quire,
    ratio: computedRatio === null ? null : round(computedRatio, 3),
    target: goal,
    met: null,
    ...(note && { note }),
    ...(details && { details }),
  };
  row.met = isMet(row);
  return row;
}

export function skippedRow({ id, measure, target: goal, note, details }) {
  return {
    id,
    measure,
    status: 'skipped',
    floor: null,
    quire: null,
    ratio: null,
    target: goal,
    met: null,
    note,
    ...(details && { details }),
  };
}

export function failedRow({ id, measure, target: goal, note, details }) {
  return {
    id,
    measure,
    status: 'failed',
    floor: null,
    quire: null,
    ratio: null,
    target: goal,
    met: false,
    note,
    ...(details && { details }),
  };
}

export const round = (value, digits = 3) =>
  value === null || value === undefined ? null : Number(value.toFixed(digits));

export const kb = (bytes) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;

/** `{ status, bytes, json }` of one request, the body kept only as its size and parsed JSON. */
export async function probe(url, init) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(300_000) });
  const body = Buffer.from(await response.arrayBuffer());
  let json;
  try {
    json = JSON.parse(body.toString());
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, bytes: body.length, json };
}

/** An answer that says the route does not exist (yet): the endpoint is not built. */
export const notBuilt = (answer) =>
  (answer.status === 404 || answer.status === 405) &&
  ['ROUTE_NOT_FOUND', 'METHOD_NOT_ALLOWED'].includes(answer.json?.error?.code);

export const NOT_BUILT = 'n/a: endpoint not built yet';
