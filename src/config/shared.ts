import type { ResolvedOptions } from './resolve.js';

const SHARED = Symbol.for('astro-quire.shared');
/** A refresh that finds Astro reloading its content config does nothing; it is tried again, this often, for up to 5 s. */
const RETRY_MS = 100;
const RETRIES = 50;

/** What the integration's hooks hand to the content loader of the same site. */
interface Shared {
  options?: ResolvedOptions;
  /** `astro dev` only: re-runs Quire's loaders, then writes Astro's data store at once (no 500 ms debounce). */
  refreshContent?: () => Promise<void>;
  /** Refreshes the loaders took part in (Astro skips a refresh while it reloads the content config). */
  refreshRuns: number;
  /** The chain of refreshes asked for so far. */
  refreshing: Promise<void>;
  /** A refresh is asked for and has not started yet. */
  queued: boolean;
  /** No refresh is asked for or running. */
  settled: boolean;
  /** Collection name → stops the dev watch work of its latest full load (Astro may re-create the loaders). */
  watches: Map<string, () => void>;
  /** Notices already given in this process. */
  told: Set<string>;
  /** `astro dev` only: compiles a changed MDX file, reporting an error with its file and line (log and overlay). */
  checkMdx?: (file: string) => Promise<void>;
}

/** The `refreshContextData` with which the integration re-runs Quire's loaders. */
export const REFRESH_CONTEXT = { quireRefresh: true } as const;

/**
 * Astro runs the integration's hooks and the loaders in one process, but the loader is evaluated
 * by Vite, so a module variable would not be seen by both; a global keyed by a registered symbol is.
 */
function shared(): Shared {
  const holder = globalThis as typeof globalThis & { [SHARED]?: Shared };
  holder[SHARED] ??= {
    refreshRuns: 0,
    refreshing: Promise.resolve(),
    queued: false,
    settled: true,
    watches: new Map(),
    told: new Set(),
  };
  return holder[SHARED];
}

/** The integration's resolved options, for the content loader of the same site. */
export function shareOptions(options: ResolvedOptions): void {
  shared().options = options;
}

export function sharedOptions(): ResolvedOptions | undefined {
  return shared().options;
}

export function shareContentRefresh(refresh: () => Promise<void>): void {
  shared().refreshContent = refresh;
}

/** True the first time it is asked about `notice` in this process (Vite may evaluate a module more than once). */
export function firstTime(notice: string): boolean {
  const { told } = shared();
  if (told.has(notice)) return false;
  told.add(notice);
  return true;
}

export function shareMdxCheck(check: (file: string) => Promise<void>): void {
  shared().checkMdx = check;
}

/** Compiles a changed MDX file in `astro dev` with the integration, so an error shows (else nothing happens). */
export function checkMdx(file: string): void {
  void shared().checkMdx?.(file);
}

/** Whether the loaders refresh through Astro (the integration, in dev). */
export function refreshesThroughAstro(): boolean {
  return shared().refreshContent !== undefined;
}

/** Called by a loader that took part in a refresh. */
export function countRefreshRun(): void {
  shared().refreshRuns++;
}

/**
 * Resolves once the content refreshes asked for so far have run, or after `limitMs`: a page
 * rendered in `astro dev` right after a change (the reload Astro sends the open pages, say) waits
 * for the data store that has it. A render that ran while Astro wrote the store could keep the old
 * store in Vite's module runner until the next change (a page showing the previous content for
 * good, about one run in four of the loader's dev test).
 */
export function contentSettled(limitMs: number): Promise<void> {
  const state = shared();
  if (state.settled) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limitMs);
  });
  return Promise.race([state.refreshing, limit]).finally(() => clearTimeout(timer));
}

/** Records a collection's dev watch work, stopping that of its previous full load. */
export function replaceWatch(collection: string, stop: () => void): void {
  const { watches } = shared();
  watches.get(collection)?.();
  watches.set(collection, stop);
}

/**
 * Asks for a content refresh after `delayMs` (changes come in bursts): calls within one burst,
 * or while a refresh runs, make one more refresh.
 */
export function requestContentRefresh(delayMs: number, onError: (error: unknown) => void): void {
  const state = shared();
  if (!state.refreshContent || state.queued) return;
  state.queued = true;
  state.settled = false;
  const chain = state.refreshing
    .then(() => new Promise((resolve) => setTimeout(resolve, delayMs)))
    .then(async () => {
      state.queued = false;
      // Writing a content file inside the project makes Astro reload its content config, and a
      // refresh asked for meanwhile is skipped: ask again until the loaders ran.
      for (let attempt = 0; attempt < RETRIES; attempt++) {
        const runs = state.refreshRuns;
        await state.refreshContent!();
        if (state.refreshRuns !== runs) return;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    })
    .catch(onError)
    .finally(() => {
      if (state.refreshing === chain) state.settled = true;
    });
  state.refreshing = chain;
}
