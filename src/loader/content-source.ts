import path from 'node:path';
import { type ResolvedOptions, runtimeAssetsDir, runtimeContentRoot } from '../config/resolve.js';
import { ItemIndex } from '../content/item-index.js';
import { createIndexSync } from '../content/sync.js';
import type { ResolvedLoaderOptions } from './options.js';

/** Where a loader's content is, and how asset URLs in it map to files. */
export interface ContentLocation {
  root: string;
  assetsDir: string;
  prefix: string;
  /** The integration's options, when the site uses it and the loader reads its content root. */
  integration?: ResolvedOptions;
}

/**
 * The loader's content root: its own `contentRoot` option if given, else the integration's (so a
 * site sets it once), else the integration's rule (CONTENT_PATH, else ./content).
 */
export function locateContent(
  options: ResolvedLoaderOptions,
  projectRoot: string,
  integration: ResolvedOptions | undefined,
): ContentLocation {
  const integrationRoot = integration && runtimeContentRoot(integration);
  const root =
    options.contentRoot !== undefined
      ? path.resolve(projectRoot, options.contentRoot)
      : (integrationRoot ?? path.resolve(projectRoot, process.env.CONTENT_PATH ?? './content'));
  if (integration && root === integrationRoot) {
    return { root, assetsDir: runtimeAssetsDir(integration, root), prefix: integration.prefix, integration };
  }
  return { root, assetsDir: path.join(root, 'assets'), prefix: '/__cms/api' };
}

/** An index of every item under a content root, and the way to bring it up to date with the files. */
export interface ContentSource {
  index: ItemIndex;
  fresh(): Promise<void>;
  /** Reads a file into the index again (a read found it changed before its event came). */
  recheck(filePath: string): Promise<void>;
  /**
   * Makes the index take in changed files by itself, soon after their events settle (its changes
   * then reach `index.onChange`); returns the function that stops it. Absent where the reader must
   * call `fresh` on file events.
   */
  follow?(): () => void;
}

/** Own indexes by content root: the collections of one site share one scan. */
const ownIndexes = new Map<string, Promise<ContentSource>>();

/**
 * In `astro dev` with the integration, the API's store (same process): one index, one watcher,
 * and an API write is in it the moment it is written. Otherwise (a build, or a site without the
 * integration) an index of the files made by the store's own scan and kept by its watcher (whose
 * folder watches do not keep a build's process alive).
 */
export async function openContentSource(location: ContentLocation, dev: boolean): Promise<ContentSource> {
  if (dev && location.integration) {
    const { getServices } = await import('../services.js');
    const { store } = getServices(location.integration);
    await store.ready;
    return store;
  }
  let source = ownIndexes.get(location.root);
  if (!source) {
    source = (async () => {
      const index = new ItemIndex();
      const sync = createIndexSync(location.root, index, {
        excluded: [location.assetsDir],
        withItemLock: (_id, task) => task(),
        readOnly: true,
      });
      await sync.ready;
      return { index, fresh: sync.fresh, recheck: sync.recheck };
    })();
    ownIndexes.set(location.root, source);
  }
  return source;
}
