import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import {
  checkMdx,
  countRefreshRun,
  firstTime,
  REFRESH_CONTEXT,
  refreshesThroughAstro,
  replaceWatch,
  requestContentRefresh,
  sharedOptions,
} from '../config/shared.js';
import { ContentMovedOn, readContents } from '../content/bodies.js';
import { nextPublicationChange } from '../content/derived-cache.js';
import type { Kind } from '../content/types.js';
import { locateContent, openContentSource } from './content-source.js';
import { wantedEntries } from './entries.js';
import { createAssetFiles } from './images.js';
import { type QuireLoaderOptions, resolveLoaderOptions } from './options.js';
import { renderMdx } from './render-mdx.js';
import { ENTRY_SCHEMAS } from './schema.js';

/** The schema of a collection of kind `K`, kept precise so `getCollection` is typed per kind. */
export type QuireEntrySchema<K extends Kind> = (typeof ENTRY_SCHEMAS)[K];

export interface QuireLoader<K extends Kind> {
  name: string;
  schema: QuireEntrySchema<K>;
  load(context: LoaderContext): Promise<void>;
}

/** Changes arrive in bursts (a write touches several records; an atomic save is a temp file plus a rename); sync once per burst. */
const BURST_MS = 25;
/** Passes started over because a file changed under them, before the load gives up (see `reconcile`). */
const MAX_REREADS = 5;
/** setTimeout's ceiling; a publication date further away is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `changed` on every file event under the content root, which may lie outside the project (CONTENT_PATH), where Vite does not watch. */
function watchFiles(
  watcher: NonNullable<LoaderContext['watcher']>,
  root: string,
  projectRoot: string,
  changed: () => void,
) {
  const relativeRoot = path.relative(projectRoot, root);
  if (relativeRoot.startsWith('..') || path.isAbsolute(relativeRoot)) watcher.add(root);
  for (const event of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
    watcher.on(event, (changedPath: string) => {
      if (changedPath.startsWith(root + path.sep)) changed();
    });
  }
}

/** Posix path of `file` relative to the project root, as the content layer stores `filePath`. */
const relativeFilePath = (projectRoot: string, file: string) =>
  path.relative(projectRoot, file).split(path.sep).join('/');

/**
 * An Astro content-layer loader for Quire content: one entry per item and locale, ID
 * `<item ID>/<locale>`, data as in the `schema` (an inherited locale carries its source's
 * content). Locales not published now are left out, except in `astro dev` with `includeDrafts`.
 * MDX bodies are compiled by the site's `@astrojs/mdx` when it has it (`render(entry)`), else
 * rendered as Markdown.
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
  /** In dev, brings the collection up to date through the latest full load()'s watch work. */
  let refreshCollection: (() => Promise<void>) | undefined;

  return {
    name: 'astro-quire',
    schema: ENTRY_SCHEMAS[userOptions.kind],
    async load(context: LoaderContext): Promise<void> {
      // The integration re-runs the loaders after a change (see `changed` below); the watch work stays.
      if (context.refreshContextData?.quireRefresh === REFRESH_CONTEXT.quireRefresh) {
        countRefreshRun();
        if (refreshCollection) return refreshCollection();
      }
      const { store, logger, watcher } = context;
      const projectRoot = fileURLToPath(context.config.root);
      const location = locateContent(options, projectRoot, sharedOptions());
      const dev = watcher !== undefined;
      const includeDrafts = dev && options.includeDrafts;
      const assets = createAssetFiles(location);
      // The MDX integration registers `.mdx` as a content entry type: its Vite plugin then compiles
      // a deferred entry's file, imports, components and all, as it does for glob()'s .mdx files.
      // Astro passes `entryTypes` to every loader (glob() reads it) but leaves it out of the public type.
      const { entryTypes } = context as LoaderContext & { entryTypes?: ReadonlyMap<string, unknown> };
      const compilesMdx = entryTypes?.has('.mdx') ?? false;
      // Said once per process, however many collections use the loader.
      if (!compilesMdx && firstTime('mdx-hint')) {
        logger.info(
          'MDX bodies render as Markdown: components, imports, exports and {expressions} do not run. To compile them as MDX, add @astrojs/mdx (npx astro add mdx).',
        );
      }
      const source = await openContentSource(location, dev);

      /**
       * Makes the store equal to what the index says now: changed entries set, vanished ones
       * deleted. An entry the collection's schema refuses fails the load (the build); in dev it is
       * logged and keeps its previous version, so one bad edit does not stop the others.
       */
      async function reconcile(tolerant: boolean, rereads = 0): Promise<{ set: number; deleted: number }> {
        try {
          return await reconcileOnce(tolerant);
        } catch (error) {
          // A file changed by hand while it was read: the index reads it again, and the pass starts over.
          if (!(error instanceof ContentMovedOn) || rereads === MAX_REREADS) throw error;
          await source.recheck(error.file);
          return reconcile(tolerant, rereads + 1);
        }
      }

      async function reconcileOnce(tolerant: boolean): Promise<{ set: number; deleted: number }> {
        let set = 0;
        let deleted = 0;
        const wanted = wantedEntries(source.index, options, includeDrafts, Date.now());
        const ids = new Set(wanted.map((entry) => entry.id));
        for (const entry of wanted) {
          // A deferred entry is rendered from the file with its body: an inherited locale's file has none.
          const deferred = compilesMdx && entry.data.type === 'mdx' && entry.holder !== undefined;
          const storedFile = deferred ? entry.bodyPath : entry.path;
          // The header, the content's etag and the file are all an entry depends on: only a changed entry has its content read.
          const digest = context.generateDigest({ data: entry.data, contentEtag: entry.contentEtag, storedFile });
          const existing = store.get(entry.id);
          if (existing?.digest === digest) {
            if (existing.deferredRender && existing.filePath) store.addModuleImport(existing.filePath);
            continue;
          }
          const content = (entry.holder && (await readContents([entry.holder]))(entry.holder)) ?? {};
          const mdx = entry.data.type === 'mdx' ? content.mdx : undefined;
          const images = assets.imageImportsOf(
            { meta: entry.data.meta, content: { ...content, mdx: undefined } },
            storedFile,
          );
          let data: Awaited<ReturnType<typeof context.parseData>>;
          try {
            data = await context.parseData({ id: entry.id, data: { ...entry.data, content }, filePath: entry.path });
          } catch (error) {
            if (!tolerant) throw error;
            logger.error(`${entry.id} (${entry.path}): ${(error as Error).message}`);
            continue;
          }
          const rendered = mdx === undefined || deferred ? undefined : await renderMdx(context, mdx, entry.path);
          // A changed MDX body in dev: Astro would render a broken one as nothing, so it is compiled now to report errors.
          if (deferred && tolerant) checkMdx(storedFile);
          store.set({
            id: entry.id,
            data: Object.keys(images).length > 0 ? { ...data, images } : data,
            digest,
            filePath: relativeFilePath(projectRoot, storedFile),
            ...(mdx !== undefined && { body: mdx }),
            ...(deferred && { deferredRender: true }),
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

      await source.fresh();
      await reconcile(false);
      if (!watcher) return;

      let burst: NodeJS.Timeout | undefined;
      let publication: NodeJS.Timeout | undefined;
      let syncing: Promise<void> = Promise.resolve();

      // A scheduled locale appears (or an expiring one goes) at its date, without a file change.
      const schedulePublication = async () => {
        const now = Date.now();
        const next = await nextPublicationChange(source.index, now);
        clearTimeout(publication);
        if (next === Infinity || superseded) return;
        publication = setTimeout(() => changed(), Math.min(next - now + 50, MAX_TIMER_MS));
        publication.unref();
      };

      /** Brings the index up to date with the files, then the collection with the index (unchanged entries cost a digest each). */
      async function sync(): Promise<void> {
        await source.fresh();
        const { set, deleted } = await reconcile(true);
        if (set + deleted > 0)
          logger.info(`Reloaded ${set} entr${set === 1 ? 'y' : 'ies'}${deleted ? `, removed ${deleted}` : ''}`);
        await schedulePublication();
      }

      /** Syncs never overlap; one that fails (say, an entry the collection's schema refuses) is logged and the next one runs. */
      const queue = () => {
        syncing = syncing
          .then(sync)
          .catch((error) => logger.error(`could not reload ${context.collection}: ${(error as Error).message}`));
      };

      /**
       * After a write through the API (the index changed), a file change on disk (the index catches
       * up on `fresh`) or a publication date. With the integration, through Astro's content refresh,
       * which writes Astro's data store at once (a page requested next sees the change; the
       * integration's dev middleware waits for it) and so sends the open pages a reload; else
       * straight into this collection's store.
       */
      function changed(): void {
        if (superseded) return;
        if (refreshesThroughAstro()) {
          requestContentRefresh(BURST_MS, (error) =>
            logger.error(`could not reload the content: ${(error as Error).message}`),
          );
          return;
        }
        burst ??= setTimeout(() => {
          burst = undefined;
          queue();
        }, BURST_MS);
      }
      refreshCollection = () => {
        queue();
        return syncing;
      };
      // A later full load of this collection (Astro reloads after a config change, and may re-create
      // the loaders) supersedes this one's watch work.
      let superseded = false;
      const stopListening = source.index.onChange(changed);
      // The API's store takes in changed files itself, and a write's own file events change nothing
      // in it, so they cost no refresh. Elsewhere Vite's watcher says when to look.
      const stopFollowing = source.follow?.();
      if (!stopFollowing) watchFiles(watcher, location.root, projectRoot, changed);
      replaceWatch(context.collection, () => {
        superseded = true;
        stopListening();
        stopFollowing?.();
        clearTimeout(burst);
        clearTimeout(publication);
      });
      await schedulePublication();
    },
  };
}
