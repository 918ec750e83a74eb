import type { ResolvedOptions } from './resolve.js';

const SHARED = Symbol.for('astro-quire.options');
type Holder = typeof globalThis & { [SHARED]?: ResolvedOptions };

/**
 * The integration's resolved options, for the content loader of the same site: Astro runs the
 * integration's hooks and the loaders in one process, but the loader is evaluated by Vite, so a
 * module variable would not be seen; a global keyed by a registered symbol is.
 */
export function shareOptions(options: ResolvedOptions): void {
  (globalThis as Holder)[SHARED] = options;
}

/** The options `shareOptions` left, if the site uses the integration. */
export function sharedOptions(): ResolvedOptions | undefined {
  return (globalThis as Holder)[SHARED];
}
