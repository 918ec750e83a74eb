/** How long a long pass may hold the event loop before it lets requests and timers in once. */
const SLICE_MS = 10;

/**
 * Splits a long synchronous pass (a start-up scan, a first list of 100k items) into slices, so
 * that no request waits on it for more than a slice: `if (slices.due()) await slices.turn()`.
 */
function eventLoopSlices() {
  let start = performance.now();
  return {
    due: () => performance.now() - start > SLICE_MS,
    async turn(): Promise<void> {
      await new Promise((resolve) => setImmediate(resolve));
      start = performance.now();
    },
  };
}

/** Calls `visit` on each item in order, in slices: the loop every long pass over all items shares. */
export async function forEachInSlices<T>(items: Iterable<T>, visit: (item: T) => void): Promise<void> {
  const slices = eventLoopSlices();
  for (const item of items) {
    visit(item);
    if (slices.due()) await slices.turn();
  }
}

/** The items that `keep` holds for, in order, checked in slices. */
export async function filterInSlices<T>(items: readonly T[], keep: (item: T) => boolean): Promise<T[]> {
  const kept: T[] = [];
  await forEachInSlices(items, (item) => {
    if (keep(item)) kept.push(item);
  });
  return kept;
}

/** Sorted runs of this many items take a few milliseconds each. */
const RUN_LENGTH = 4096;

/**
 * `items` sorted into a new array, in slices: runs sorted one at a time, then merged pairwise.
 * Sorting 100k items in one go holds the event loop for ~100 ms.
 */
export async function sortInSlices<T>(items: readonly T[], compare: (a: T, b: T) => number): Promise<T[]> {
  const slices = eventLoopSlices();
  let runs: T[][] = [];
  for (let start = 0; start < items.length; start += RUN_LENGTH) {
    runs.push(items.slice(start, start + RUN_LENGTH).sort(compare));
    if (slices.due()) await slices.turn();
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let pair = 0; pair < runs.length; pair += 2) {
      const [left, right] = [runs[pair]!, runs[pair + 1]];
      if (!right) {
        merged.push(left);
        continue;
      }
      const out: T[] = [];
      let [l, r] = [0, 0];
      while (l < left.length && r < right.length) {
        out.push(compare(left[l]!, right[r]!) <= 0 ? left[l++]! : right[r++]!);
        if (out.length % 1024 === 0 && slices.due()) await slices.turn();
      }
      merged.push(out.concat(left.slice(l), right.slice(r)));
    }
    runs = merged;
  }
  return runs[0] ?? [];
}
