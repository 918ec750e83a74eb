import { QuireError } from '../../errors.js';
import type { ChangeFeed } from '../../events/feed.js';
import type { SitesSource } from '../../sites/sites-config.js';
import { KeyedLock } from '../../util/keyed-lock.js';
import { WriteGate } from '../../util/write-gate.js';
import { createDerivedCache } from '../derived-cache.js';
import { ItemIndex } from '../item-index.js';
import { createLocaleAnswers } from '../locale-answers.js';
import { createSourceCache } from '../source-cache.js';
import { createIndexSync, type ReferenceFinder } from '../sync.js';
import type { Item, StoredLocale } from '../types.js';
import { currentEtag } from '../views.js';

export interface StoreOptions {
  root: string;
  sites: SitesSource;
  metadataBytes: number;
  /** Folders under the root that hold no content (the assets folder). */
  excluded: string[];
  /** Where every change to the content is announced: the store's own writes and changes seen on disk. */
  feed: ChangeFeed;
  /** The byte budget of the answers kept for repeated lists and site-wide views. @default 64 MiB */
  cacheBytes?: number;
  /** Finds the asset references in a locale's content, kept in the index for the usage answers. */
  referencesOf?: ReferenceFinder;
}

/** Who is writing, for attribution. */
export type Author = string | undefined;

/** How long file events settle before the index catches up on its own, while someone listens for changes. */
const DISK_CHANGE_SETTLE_MS = 100;

/**
 * What every store operation shares: the index and the watcher that keeps it equal to the files,
 * the locks, the change feed and the caches. Operations are functions of it (as isomorphic-git's
 * commands are functions of `fs`, `dir` and a cache), so each lives in a module of its own.
 */
export function createStoreContext(options: StoreOptions) {
  const { root, sites, feed } = options;
  const index = new ItemIndex();
  const itemLocks = new KeyedLock();
  const withItemLock = <T>(id: string, task: () => Promise<T>) => itemLocks.run(id, task);
  const gate = new WriteGate();
  let catchUp: NodeJS.Timeout | undefined;
  /** Readers that mirror the index (the content loader in dev) and want changed files taken in without a request. */
  let followers = 0;
  const sync = createIndexSync(root, index, {
    excluded: options.excluded,
    withItemLock,
    onDirty: catchUpSoon,
    onDiskChange: (id, locale, action) => announce(id, locale, action, null),
    referencesOf: options.referencesOf,
  });

  /**
   * Without listeners or followers a changed file is read when a request next needs the index; with
   * them, soon after its events settle, so that a hand edit or a pull is announced without waiting for a request.
   */
  function catchUpSoon() {
    if ((feed.listeners === 0 && followers === 0) || catchUp) return;
    catchUp = setTimeout(() => {
      catchUp = undefined;
      sync
        .fresh()
        .catch((error) =>
          console.warn(`[astro-quire] could not catch up with changed files: ${(error as Error).message}`),
        );
    }, DISK_CHANGE_SETTLE_MS);
    catchUp.unref();
  }

  /** Announces a changed locale, and the locales that inherit its content (their etags changed with it). */
  function announce(id: string, locale: string, action: 'created' | 'updated' | 'deleted', by: string | null) {
    const item = index.get(id);
    const stored = item?.locales.get(locale);
    feed.announce({ kind: 'content', id, locale, etag: item && stored ? currentEtag(item, stored) : null, by, action });
    for (const [code, other] of item?.locales ?? []) {
      if (code !== locale && other.file.inheritance?.state === 'inherited' && other.file.inheritance.from === locale) {
        feed.announce({ kind: 'content', id, locale: code, etag: currentEtag(item!, other), by, action: 'updated' });
      }
    }
  }

  function requireItem(id: string): Item {
    const item = index.get(id);
    if (!item) throw new QuireError('CONTENT_NOT_FOUND', `No content with ID "${id}".`, { id });
    return item;
  }

  function requireLocale(item: Item, locale: string): StoredLocale {
    const stored = item.locales.get(locale);
    if (!stored)
      throw new QuireError('CONTENT_NOT_FOUND', `Content "${item.id}" has no locale ${locale}.`, {
        id: item.id,
        locale,
      });
    return stored;
  }

  return {
    root,
    sites,
    feed,
    index,
    sync,
    gate,
    withItemLock,
    /** Held by every write that may change a pathname or a name, so two writes cannot take the same one. */
    namingLock: new KeyedLock(),
    sourceCache: createSourceCache(root),
    cache: createDerivedCache(index, options.cacheBytes),
    /** The JSON of recently read single locales, kept while they and their source are unchanged. */
    localeAnswers: createLocaleAnswers(),
    metadataBytes: options.metadataBytes,
    referencesOf: options.referencesOf,
    announce,
    requireItem,
    requireLocale,

    /** Runs one item's write after the index has caught up with the disk, under that item's lock. */
    onItem<T>(id: string, task: (item: Item) => Promise<T>): Promise<T> {
      return gate.shared(async () => {
        await sync.fresh();
        return withItemLock(id, () => task(requireItem(id)));
      });
    },

    /** Takes changed files into the index soon after their events settle, until the returned function is called. */
    follow(): () => void {
      followers++;
      let following = true;
      return () => {
        if (following) followers--;
        following = false;
      };
    },

    close() {
      clearTimeout(catchUp);
      sync.close();
    },
  };
}

export type StoreContext = ReturnType<typeof createStoreContext>;
