/** How long a long pass may hold the event loop before it lets requests and timers in once. */
const SLICE_MS = 15;

/**
 * Splits a long synchronous pass (a start-up scan, a first list of 100k items) into slices, so
 * that no request waits on it for more than a slice: `if (slices.due()) await slices.turn()`.
 */
export function eventLoopSlices() {
  let start = performance.now();
  return {
    due: () => performance.now() - start > SLICE_MS,
    async turn(): Promise<void> {
      await new Promise((resolve) => setImmediate(resolve));
      start = performance.now();
    },
  };
}
