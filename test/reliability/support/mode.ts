/** `npm run test:stress` sets this: bigger workloads, more runs, longer limits. */
export const STRESS = process.env.QUIRE_STRESS === '1';

/** The default run's number, or the stress run's. */
export const scale = (normal: number, stress: number) => (STRESS ? stress : normal);

/** Runs `tasks` with at most `limit` in flight, keeping their order in the results. */
export async function pool<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
