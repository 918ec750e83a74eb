import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import type { Kind } from '../content/types.js';
import { createContentIndex } from './content-index.js';
import { nextPublicationChange, wantedEntries } from './entries.js';
import { contentRootOf, type QuireLoaderOptions, resolveLoaderOptions } from './options.js';
import { renderMdx } from './render-mdx.js';
import { ENTRY_SCHEMAS } from './schema.js';

/** The schema of a collection of kind `K`, kept precise so `getCollection` is typed per kind. */
export type QuireEntrySchema<K extends Kind> = (typeof ENTRY_SCHEMAS)[K];

export interface QuireLoader<K extends Kind> {
  name: string;
  schema: QuireEntrySchema<K>;
  load(context: LoaderContext): Promise<void>;
}

/** Watcher events arrive in bursts (an atomic save is a temp file plus a rename); sync once per burst. */
const BURST_MS = 25;
/** setTimeout's ceiling; a publication date further away is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * An Astro content-layer loader for Quire content: one entry per item and locale, ID
 * `<item ID>/<locale>`, data as in the `schema` (an inherited locale carries its source's
 * content). Locales not published now are left out, except in `astro dev` with `includeDrafts`.
 *
 * ```ts
 * // src/content.config.ts
 * import { defineCollection } from 'astro:content';
 * import { quireLoader } from 'astro-quire/loader';
 * export const collections = { pages: defineCollection({ loader: quireLoader({ kind: 'page', site: 'marketing' }) }) };
 * ```
 */
export function quireLoader<K extends Kind>(userOptions: QuireLoaderOptions<K>): QuireLoader<K> {
  const options = resolveLoaderOptions(userOptions);
  // Each load() (Astro reloads after a config change) supersedes the watch work of the previous one.
  let generation = 0;

  return {
    name: 'astro-quire',
    schema: ENTRY_SCHEMAS[userOptions.kind],
    async load(context: LoaderContext): Promise<void> {
      const current = ++generation;
      const { store, logger, watcher } = context;
      const projectRoot = fileURLToPath(context.config.root);
      const root = contentRootOf(options, projectRoot);
      const dev = watcher !== undefined;
      const includeDrafts = dev && options.includeDrafts;
      const content = createContentIndex(root, options.kind, (message) => logger.warn(message));

      /**
       * Makes the store equal to what the index says now: changed entries set, vanished ones
       * deleted. An entry the collection's schema refuses fails the load (the build); in dev it is
       * logged and keeps its previous version, so one bad edit does not stop the others.
       */
      async function reconcile(tolerant: boolean): Promise<{ set: number; deleted: number }> {
        let set = 0;
        let deleted = 0;
        const wanted = wantedEntries(content.index, options, includeDrafts, Date.now());
        const ids = new Set(wanted.map((entry) => entry.id));
        for (const entry of wanted) {
          const digest = context.generateDigest(entry.data);
          if (store.get(entry.id)?.digest === digest) continue;
          const filePath = path.relative(projectRoot, entry.path).split(path.sep).join('/');
          let data: Awaited<ReturnType<typeof context.parseData>>;
          try {
            data = await context.parseData({ id: entry.id, data: entry.data, filePath: entry.path });
          } catch (error) {
            if (!tolerant) throw error;
            logger.error(`${entry.id} (${entry.path}): ${(error as Error).message}`);
            continue;
          }
          const mdx = entry.data.type === 'mdx' ? entry.data.content.mdx : undefined;
          const rendered = mdx === undefined ? undefined : await renderMdx(context, mdx, entry.path);
          store.set({
            id: entry.id,
            data,
            digest,
            filePath,
            ...(mdx !== undefined && { body: mdx }),
            ...(rendered && { rendered, assetImports: rendered.metadata?.imagePaths }),
          });
          set++;
        }
        for (const id of store.keys()) {
          if (!ids.has(id)) {
            store.delete(id);
            deleted++;
          }
        }
        return { set, deleted };
      }

      await content.scan();
      await reconcile(false);
      if (!watcher) return;

      // In dev: the content root may lie outside the project (CONTENT_PATH), where Vite does not watch.
      const relativeRoot = path.relative(projectRoot, root);
      if (relativeRoot.startsWith('..') || path.isAbsolute(relativeRoot)) watcher.add(root);

      const dirty = new Set<string>();
      let burst: NodeJS.Timeout | undefined;
      let publication: NodeJS.Timeout | undefined;
      let syncing: Promise<void> = Promise.resolve();

      // A scheduled locale appears (or an expiring one goes) at its date, without a file change.
      const schedulePublication = () => {
        clearTimeout(publication);
        const now = Date.now();
        const next = nextPublicationChange(content.index, options, now);
        if (next === undefined) return;
        publication = setTimeout(() => queue(true), Math.min(next - now + 50, MAX_TIMER_MS));
        publication.unref();
      };

      async function flush(force: boolean): Promise<void> {
        if (current !== generation) return;
        const batch = [...dirty];
        dirty.clear();
        let changed = force;
        for (const changedPath of batch) {
          try {
            changed = (await content.syncPath(changedPath)) || changed;
          } catch (error) {
            logger.warn(`could not read ${changedPath}: ${(error as Error).message}`);
          }
        }
        if (!changed) return;
        const { set, deleted } = await reconcile(true);
        if (set + deleted > 0)
          logger.info(`Reloaded ${set} entr${set === 1 ? 'y' : 'ies'}${deleted ? `, removed ${deleted}` : ''}`);
        schedulePublication();
      }

      /** Syncs never overlap; one that fails (say, an entry the collection's schema refuses) is logged and the next one runs. */
      const queue = (force: boolean) => {
        syncing = syncing
          .then(() => flush(force))
          .catch((error) => logger.error(`could not reload ${context.collection}: ${(error as Error).message}`));
      };

      const onPath = (changedPath: string) => {
        if (current !== generation || !changedPath.startsWith(root + path.sep)) return;
        dirty.add(changedPath);
        if (burst !== undefined) return;
        burst = setTimeout(() => {
          burst = undefined;
          queue(false);
        }, BURST_MS);
      };
      for (const event of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) watcher.on(event, onPath);
      schedulePublication();
    },
  };
}
