import type { ResolvedOptions } from './resolve.js';

const SHARED = Symbol.for('astro-quire.shared');

/** What the integration's hooks hand to the loader and the dev middleware of the same site. */
interface Shared {
  options?: ResolvedOptions;
  /** `astro dev` only: re-runs Quire's loaders and writes Astro's data store at once (no 500 ms debounce). */
  refreshContent?: () => Promise<void>;
  /** `astro dev` only: settles once the content changed so far is in Astro's data store. */
  settled?: Promise<void>;
  /** A refresh is asked for and has not started yet. */
  queued?: boolean;
}

/** The `refreshContextData` with which the integration re-runs Quire's loaders. */
export const REFRESH_CONTEXT = { quireRefresh: true } as const;

/**
 * Astro runs the integration's hooks, the loaders and the dev server's routes in one process, but
 * the loader and the routes are evaluated by Vite, so a module variable would not be seen by all of
 * them; a global keyed by a registered symbol is.
 */
function shared(): Shared {
  const holder = globalThis as typeof globalThis & { [SHARED]?: Shared };
  return (holder[SHARED] ??= {});
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

/** Quire's loaders refresh through Astro (when the integration is in dev), so a page rendered after a change sees it; false without the integration. */
export function refreshesThroughAstro(): boolean {
  return shared().refreshContent !== undefined;
}

/**
 * Asks for a content refresh after `delayMs` (changes come in bursts); calls within one burst,
 * or while a refresh runs, make one more refresh. `contentSettled()` waits for all of them.
 */
export function requestContentRefresh(delayMs: number, onError: (error: unknown) => void): void {
  const state = shared();
  if (!state.refreshContent || state.queued) return;
  state.queued = true;
  const previous = state.settled ?? Promise.resolve();
  state.settled = previous
    .then(() => new Promise((resolve) => setTimeout(resolve, delayMs)))
    .then(() => {
      state.queued = false;
      return state.refreshContent!();
    })
    .catch(onError);
}

/** Resolves once every content change requested so far is in Astro's data store. */
export function contentSettled(): Promise<void> | undefined {
  return shared().settled;
}
