import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { QuireError } from '../errors.js';
import type { ChangeFeed } from '../events/feed.js';
import { requireSite, type SiteConfig, type SitesConfig, type SitesSource, siteNamed } from '../sites/sites-config.js';
import { leadsOutside, writeFileAtomic } from '../util/atomic-write.js';
import { signatureOf } from '../util/file-signature.js';
import { KeyedLock } from '../util/keyed-lock.js';
import { WriteGate } from '../util/write-gate.js';
import { createDerivedCache, type ItemMatcher } from './derived-cache.js';
import { canonicalJson, contentEtagOf } from './etag.js';
import { serializeLocaleFile } from './files.js';
import { type ListFilters, matchesFilters } from './filters.js';
import { idBase, uniqueId } from './ids.js';
import { type IdClash, ItemIndex } from './item-index.js';
import { createLocaleAnswers } from './locale-answers.js';
import { applyLocaleUpdate, type DateInput, type LocaleUpdate, mergeMeta } from './locale-update.js';
import { findNamed } from './names.js';
import { localeFilePath, parseContentPath } from './paths.js';
import { type ContentProblem, computeProblems } from './problems.js';
import { createSourceCache } from './source-cache.js';
import { createIndexSync, storedLocale } from './sync.js';
import type { ContentData, ContentType, Item, ItemHome, Kind, LocaleFile, Meta } from './types.js';
import { currentEtag, effectiveContent, entryOf, hasSourceChanged, isStale, localizedEntryOf } from './views.js';

/** What a content file is, for naming it to an editor (the git panel). */
export interface ContentFileSubject extends ItemHome {
  id: string;
  locale: string;
  title?: string;
}

export interface CreateInput {
  kind: Kind;
  site?: string;
  collection: string;
  type: ContentType;
  name?: string;
  meta?: Meta;
  locales: Record<
    string,
    {
      pathname?: string;
      publishAt?: DateInput;
      unpublishAt?: DateInput;
      meta?: Meta;
      content?: ContentData;
      inherit?: boolean;
    }
  >;
}

export interface BatchOperation {
  id: string;
  locale: string;
  data: LocaleUpdate;
  etag: string;
}
/** An operation the HTTP layer already found invalid: reported in place, like any other failure. */
export interface RejectedOperation {
  id: string;
  locale: string;
  error: QuireError;
}

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
}

/** How long file events settle before the index catches up on its own, while someone listens for changes. */
const DISK_CHANGE_SETTLE_MS = 100;

/** Who is writing, for attribution. */
export type Author = string | undefined;

/**
 * The content store: every read answers from the in-memory index (kept equal to the files),
 * every write runs under its item's lock as check-etag → write file atomically → update index.
 */
export function createContentStore(options: StoreOptions) {
  const { root, sites } = options;
  const index = new ItemIndex();
  const itemLocks = new KeyedLock();
  const namingLock = new KeyedLock();
  const withItemLock = <T>(id: string, task: () => Promise<T>) => itemLocks.run(id, task);
  const gate = new WriteGate();
  const { feed } = options;
  const sourceCache = createSourceCache(root);
  let catchUp: NodeJS.Timeout | undefined;
  /** Readers that mirror the index (the content loader in dev) and want changed files taken in without a request. */
  let followers = 0;
  const sync = createIndexSync(root, index, {
    excluded: options.excluded,
    withItemLock,
    onDirty: catchUpSoon,
    onDiskChange: (id, locale, action) => announce(id, locale, action, null),
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
  const cache = createDerivedCache(index, options.cacheBytes);
  const localeAnswers = createLocaleAnswers();
  // A selection may depend on sites.json (expected locales), so its cache key names the configuration read.
  const configKeys = new WeakMap<SitesConfig, string>();
  const keyConfig = (config: SitesConfig) => {
    const key = canonicalJson(config);
    configKeys.set(config, key);
    return key;
  };

  // ---- scope rules (docs/interface.md, "Codes and names") ----

  const siteConfig = (site: string): SiteConfig => requireSite(sites.get(), site);

  function scopeOf(home: ItemHome): { defaultLocale: string; locales: readonly string[] } {
    if (home.site !== undefined) {
      const site = siteConfig(home.site);
      return { defaultLocale: site.defaultLocale, locales: site.locales };
    }
    const { globalLocales } = sites.get();
    return { defaultLocale: globalLocales[0]!, locales: globalLocales };
  }

  function expectedLocales(item: Item, config: SitesConfig): readonly string[] {
    if (item.site === undefined) return config.globalLocales;
    return siteNamed(config, item.site)?.locales ?? [];
  }

  function requireConfiguredLocale(home: ItemHome, locale: string, locales: readonly string[]) {
    if (!locales.includes(locale)) {
      const where = home.site !== undefined ? `site "${home.site}"` : 'globalLocales';
      throw new QuireError(
        'INVALID_REQUEST',
        `Locale ${locale} is not configured for ${where} in sites.json (configured: ${locales.join(', ')}).`,
        { field: 'locale', locale, allowed: locales },
      );
    }
  }

  function checkMetaSize(meta: Meta, locale: string) {
    const bytes = Buffer.byteLength(JSON.stringify(meta));
    if (bytes > options.metadataBytes) {
      throw new QuireError(
        'METADATA_TOO_LARGE',
        `The meta of locale ${locale} is ${bytes} bytes; the limit is ${options.metadataBytes} (limits.metadataBytes).`,
        { locale, bytes, limit: options.metadataBytes },
      );
    }
  }

  // ---- uniqueness ----

  function pathnameOwner(site: string, locale: string, pathname: string, exceptId?: string): string | undefined {
    for (const item of index.items.values()) {
      if (
        item.kind === 'page' &&
        item.site === site &&
        item.id !== exceptId &&
        item.locales.get(locale)?.file.pathname === pathname
      )
        return item.id;
    }
    return undefined;
  }

  const nameOwner = (home: ItemHome, name: string, options: { exceptId?: string; locale?: string } = {}) =>
    findNamed(index.items.values(), home, name, options)?.id;

  function assertPathnameFree(site: string, locale: string, pathname: string, exceptId?: string) {
    const owner = pathnameOwner(site, locale, pathname, exceptId);
    if (owner)
      throw new QuireError(
        'PATHNAME_TAKEN',
        `The pathname ${pathname} is already used by "${owner}" in site "${site}" (${locale}).`,
        { pathname, locale, existingId: owner },
      );
  }

  function assertNameFree(home: ItemHome, name: string, exceptId?: string) {
    const owner = nameOwner(home, name, { exceptId });
    if (owner)
      throw new QuireError(
        'ALREADY_EXISTS',
        `A ${home.kind === 'data' ? 'data entry' : home.kind} named "${name}" already exists in collection "${home.collection}" ("${owner}").`,
        { name, existingId: owner },
      );
  }

  // ---- files ----

  /** Whether a file the index skipped (unreadable, or a symlink) holds one of these paths: a new item never takes it over. */
  function onDisk(home: ItemHome, id: string, type: ContentType, locales: string[]): boolean {
    return locales.some((locale) => {
      try {
        fsSync.lstatSync(localeFilePath(root, home, id, locale, type));
        return true;
      } catch {
        return false;
      }
    });
  }

  async function writeLocale(
    item: ItemHome & { id: string; type: ContentType },
    locale: string,
    file: LocaleFile,
    by: Author,
  ) {
    const filePath = localeFilePath(root, item, item.id, locale, item.type);
    // A site or collection folder that is a symlink out of the root: the scan never reads there, and no write goes there.
    const folder = path.dirname(filePath);
    let outside = false;
    try {
      outside = leadsOutside(root, folder);
    } catch {
      // An unreadable folder: the write below fails and says why.
    }
    if (outside) {
      throw new QuireError(
        'INVALID_REQUEST',
        `The folder ${path.relative(root, folder)} leads outside the content root (through a symlink): content cannot be stored there.`,
        { folder: path.relative(root, folder) },
      );
    }
    try {
      fsSync.mkdirSync(folder, { recursive: true });
      const written = await writeFileAtomic(filePath, serializeLocaleFile(item.type, file));
      const stored = storedLocale(file, filePath, signatureOf(written));
      const existed = index.get(item.id)?.locales.has(locale) ?? false;
      index.setLocale(item, item.id, item.type, locale, stored);
      announce(item.id, locale, existed ? 'updated' : 'created', by ?? null);
      return stored;
    } catch (error) {
      throw new QuireError(
        'WRITE_ERROR',
        `Could not write ${filePath}: ${(error as Error).message}`,
        { file: filePath },
        { cause: error },
      );
    }
  }

  async function deleteLocale(item: Item, locale: string) {
    const stored = item.locales.get(locale)!;
    try {
      await fs.rm(stored.path, { force: true });
    } catch (error) {
      throw new QuireError(
        'WRITE_ERROR',
        `Could not delete ${stored.path}: ${(error as Error).message}`,
        { file: stored.path },
        { cause: error },
      );
    }
    index.removeLocale(item.id, locale);
  }

  // ---- reads ----

  const listMatcher =
    (filters: ListFilters) =>
    (config: SitesConfig): ItemMatcher =>
    (item, now) =>
      matchesFilters(item, filters, filters.localization ? expectedLocales(item, config) : [], now);

  function filterItems(filters: ListFilters): Item[] {
    const matches = listMatcher(filters)(sites.get());
    const now = Date.now();
    return index.sorted().filter((item) => matches(item, now));
  }

  const staleMatcher =
    (locale: string, kind?: Kind, customized = false) =>
    (): ItemMatcher =>
    (item) => {
      const stored = item.locales.get(locale);
      if ((kind && item.kind !== kind) || stored === undefined) return false;
      return isStale(item, stored) || (customized && hasSourceChanged(item, stored));
    };

  /**
   * `{ items, total }` of the ID-ordered items that match, as (ASCII-only) JSON, cached under `key`
   * until sites.json or a publication date changes, and updated item by item as items change (so
   * a repeated list costs a lookup, and the first one after a write one render).
   */
  async function selectionJson(key: string, matcherFor: (config: SitesConfig) => ItemMatcher): Promise<string> {
    await sync.fresh();
    const config = sites.get();
    return cache.selection(
      `${key}\0${configKeys.get(config) ?? keyConfig(config)}`,
      () => matcherFor(config),
      manifestListJson,
    );
  }

  function manifestListJson(items: readonly Item[]): string {
    const manifests = items.map((item) => index.cachedManifest(item.id, () => JSON.stringify(entryOf(item, false))));
    return `{"items":[${manifests.join(',')}],"total":${items.length}}`;
  }

  // ---- helpers for operations ----

  function requireItem(id: string): Item {
    const item = index.get(id);
    if (!item) throw new QuireError('CONTENT_NOT_FOUND', `No content with ID "${id}".`, { id });
    return item;
  }

  function requireLocale(item: Item, locale: string) {
    const stored = item.locales.get(locale);
    if (!stored)
      throw new QuireError('CONTENT_NOT_FOUND', `Content "${item.id}" has no locale ${locale}.`, {
        id: item.id,
        locale,
      });
    return stored;
  }

  function checkEtag(item: Item, locale: string, etag: string) {
    const current = currentEtag(item, requireLocale(item, locale));
    if (etag !== current) {
      throw new QuireError(
        'STALE_WRITE',
        `Content "${item.id}" (${locale}) changed since it was read: reload it and apply your change again.`,
        { id: item.id, locale, currentEtag: current },
      );
    }
  }

  /** Runs one item's write after the index has caught up with the disk, under that item's lock. */
  async function onItem<T>(id: string, task: (item: Item) => Promise<T>): Promise<T> {
    return gate.shared(async () => {
      await sync.fresh();
      return withItemLock(id, () => task(requireItem(id)));
    });
  }

  async function updateLocale(id: string, locale: string, update: LocaleUpdate, etag: string, by: Author) {
    return onItem(id, async (item) => {
      const { defaultLocale, locales } = scopeOf(item);
      const previous = item.locales.get(locale);
      if (previous && etag !== '') checkEtag(item, locale, etag);
      // An etag names a version of this locale: if the locale is gone (deleted meanwhile), the write
      // must not bring it back with only what this request carries.
      if (!previous && etag !== '') {
        throw new QuireError(
          'STALE_WRITE',
          `Content "${id}" has no locale ${locale} any more (it was deleted since it was read): reload it; a new translation is added without an etag.`,
          { id, locale, currentEtag: null },
        );
      }
      if (!previous) {
        requireConfiguredLocale(item, locale, locales);
        // A new translation of a fragment or data entry keeps the item's name unless it is given one.
        const name = item.locales.get(defaultLocale)?.file.name;
        if (item.kind !== 'page' && update.name === undefined && name !== undefined) update = { ...update, name };
      }
      const file = applyLocaleUpdate(previous?.file, update, {
        kind: item.kind,
        type: item.type,
        locale,
        defaultLocale,
        sourceContentEtag: item.locales.get(defaultLocale)?.contentEtag,
        now: new Date().toISOString(),
        by,
      });
      checkMetaSize(file.meta, locale);
      // A default locale's content about to be replaced is kept when a translation was reviewed against it. One
      // that none was is never needed: a review, a break or a new translation records the source's content then.
      if (
        locale === defaultLocale &&
        previous?.file.content &&
        reviewedAgainst(item, locale, previous.contentEtag) &&
        contentEtagOf(file.content) !== previous.contentEtag
      )
        await sourceCache.put(previous.contentEtag, { meta: previous.file.meta, content: previous.file.content });
      const renames = file.pathname !== previous?.file.pathname || file.name !== previous?.file.name;
      const write = async () => {
        if (item.kind === 'page' && file.pathname !== previous?.file.pathname)
          assertPathnameFree(item.site!, locale, file.pathname!, item.id);
        if (file.name !== undefined && file.name !== previous?.file.name) assertNameFree(item, file.name, item.id);
        return writeLocale(item, locale, file, by);
      };
      const stored = renames ? await namingLock.run('names', write) : await write();
      return { etag: currentEtag(item, stored), modified: file.modified, previousPathname: previous?.file.pathname };
    });
  }

  /** Whether a translation of the item records `contentEtag` of `locale` as the version it was last reviewed against. */
  function reviewedAgainst(item: Item, locale: string, contentEtag: string): boolean {
    for (const other of item.locales.values()) {
      const { inheritance } = other.file;
      if (inheritance?.from === locale && inheritance.inheritedEtag === contentEtag) return true;
    }
    return false;
  }

  type Transition = 'mark-reviewed' | 'break-inheritance' | 'revert-to-inherited';

  async function transition(kind: Transition, id: string, locale: string, etag: string, by: Author) {
    return onItem(id, async (item) => {
      const { defaultLocale } = scopeOf(item);
      const stored = requireLocale(item, locale);
      checkEtag(item, locale, etag);
      const state = stored.file.inheritance?.state;
      const wanted = kind === 'revert-to-inherited' ? 'customized' : 'inherited';
      // A customized locale that fell behind its source is settled by marking it reviewed too.
      const settlesFallenBehind = kind === 'mark-reviewed' && hasSourceChanged(item, stored);
      if (locale === defaultLocale || (state !== wanted && !settlesFallenBehind)) {
        throw new QuireError(
          'INVALID_REQUEST',
          `${kind} applies to a ${wanted} locale; ${locale} of "${id}" is ${locale === defaultLocale ? 'the default locale' : (state ?? 'not inheriting')}.`,
          { id, locale, state: state ?? null },
        );
      }
      const source = item.locales.get(stored.file.inheritance!.from);
      const sourceEtag = source?.contentEtag;
      const file: LocaleFile = { ...stored.file, modified: new Date().toISOString() };
      if (by) file.modifiedBy = by;
      else delete file.modifiedBy;
      if (kind === 'mark-reviewed') {
        file.inheritance = { ...file.inheritance!, inheritedEtag: sourceEtag };
      } else if (kind === 'break-inheritance') {
        file.inheritance = { ...file.inheritance!, state: 'customized', inheritedEtag: sourceEtag };
        file.content = source?.file.content ?? {};
      } else {
        file.inheritance = {
          state: 'inherited',
          from: defaultLocale,
          inheritedEtag: item.locales.get(defaultLocale)?.contentEtag,
        };
        delete file.content;
      }
      const written = await writeLocale(item, locale, file, by);
      return { etag: currentEtag(item, written) };
    });
  }

  /** A value computed from all items, recomputed only after the index changed (or a publication date passed). */
  async function derived<T>(key: string, compute: (items: Iterable<Item>) => T): Promise<T> {
    await sync.fresh();
    return cache.get(`derived:${key}`, () => compute(index.items.values()));
  }

  return {
    ready: sync.ready,
    close() {
      clearTimeout(catchUp);
      sync.close();
    },
    /** The index every read answers from, for a reader in the same process (the content loader in dev); never written outside the store. */
    index,
    /** Resolves once every file change reported so far is in the index. */
    fresh: sync.fresh,
    /** Takes changed files into the index soon after their events settle, until the returned function is called. */
    follow(): () => void {
      followers++;
      let following = true;
      return () => {
        if (following) followers--;
        following = false;
      };
    },

    /** The collection names of the items of these kinds (in one site, when given), sorted. */
    async collections(kinds: readonly Kind[], site?: string): Promise<string[]> {
      await sync.fresh();
      const names = new Set<string>();
      for (const item of index.items.values()) {
        if (kinds.includes(item.kind) && (site === undefined || item.site === site)) names.add(item.collection);
      }
      return [...names].sort();
    },

    /** The ID of the page of the site that has this pathname in this locale (other than `exceptId`). */
    async pathnameOwner(
      site: string,
      locale: string,
      pathname: string,
      exceptId?: string,
    ): Promise<string | undefined> {
      await sync.fresh();
      return pathnameOwner(site, locale, pathname, exceptId);
    },

    /** The ID of the item in this scope named `name` (in any locale, or in `locale`), other than `exceptId`. */
    async nameOwner(home: ItemHome, name: string, options: { exceptId?: string; locale?: string } = {}) {
      await sync.fresh();
      return nameOwner(home, name, options);
    },

    /** Items matching the filters, in ID order. */
    async list(filters: ListFilters): Promise<Item[]> {
      await sync.fresh();
      return filterItems(filters);
    },

    /** `{ items, total }` of the items matching the filters, as JSON, cached per query. */
    listJson: (filters: ListFilters) => selectionJson(`list:${canonicalJson(filters)}`, listMatcher(filters)),

    /** `{ items, total }` of the items whose `locale` is stale, as JSON, cached per query. */
    /** With `customized`, the customized locales whose source changed since count too. */
    needsReviewJson: (locale: string, kind?: Kind, customized = false) =>
      selectionJson(`needs-review:${locale}:${kind ?? ''}:${customized}`, staleMatcher(locale, kind, customized)),

    selectionJson,

    async get(id: string) {
      await sync.fresh();
      return entryOf(requireItem(id), true);
    },

    /**
     * What reviewing a translation compares: the content etag it was last reviewed (or customized)
     * at, its default locale's content now, and the translation itself. A locale that does not
     * inherit (the default locale among them) has nothing to review.
     */
    async reviewBasis(id: string, locale: string) {
      await sync.fresh();
      const item = requireItem(id);
      const stored = requireLocale(item, locale);
      const inheritance = stored.file.inheritance;
      if (!inheritance) {
        throw new QuireError(
          'INVALID_REQUEST',
          `Locale ${locale} of "${id}" does not inherit from another locale, so there is nothing to review.`,
          { id, locale, state: null },
        );
      }
      const source = requireLocale(item, inheritance.from);
      return {
        item: { id: item.id, kind: item.kind, type: item.type, collection: item.collection, site: item.site },
        inheritance,
        stale: isStale(item, stored),
        sourceChanged: hasSourceChanged(item, stored),
        translation: { etag: currentEtag(item, stored), meta: stored.file.meta, ...effectiveContent(item, stored) },
        source: {
          path: source.path,
          extension: path.extname(source.path).slice(1) as 'json' | 'mdx',
          meta: source.file.meta,
          content: source.file.content ?? {},
          contentEtag: source.contentEtag,
        },
      };
    },

    /** A replaced default-locale version kept by content etag (see `createSourceCache`). */
    cachedSource: (contentEtag: string) => sourceCache.get(contentEtag),

    /** One locale as the JSON of its localized entry, and its etag. */
    async getLocale(id: string, locale: string) {
      await sync.fresh();
      const item = requireItem(id);
      const stored = requireLocale(item, locale);
      const json = localeAnswers(item, locale, stored, () => JSON.stringify(localizedEntryOf(item, locale, stored)));
      return { json, etag: currentEtag(item, stored) };
    },

    async create(input: CreateInput, by: Author) {
      await sync.fresh();
      const home: ItemHome = {
        kind: input.kind,
        collection: input.collection,
        ...(input.site !== undefined && { site: input.site }),
      };
      const { defaultLocale, locales } = scopeOf(home);
      const localeCodes = Object.keys(input.locales);
      if (!localeCodes.includes(defaultLocale)) {
        throw new QuireError('MISSING_REQUIRED_FIELD', `locales must include the default locale ${defaultLocale}.`, {
          fields: [{ field: `locales.${defaultLocale}`, message: 'The default locale is required' }],
        });
      }
      for (const locale of localeCodes) requireConfiguredLocale(home, locale, locales);
      const now = new Date().toISOString();
      // The default locale first: the others take their inheritance from it.
      const ordered = [defaultLocale, ...localeCodes.filter((locale) => locale !== defaultLocale)];
      const files = new Map<string, LocaleFile>();
      let sourceContentEtag: string | undefined;
      for (const locale of ordered) {
        const { meta, ...rest } = input.locales[locale]!;
        if (rest.content === undefined && !rest.inherit) {
          throw new QuireError(
            'MISSING_REQUIRED_FIELD',
            `Locale ${locale} needs content (or inherit: true to take the default locale's).`,
            { fields: [{ field: `locales.${locale}.content`, message: 'Required' }] },
          );
        }
        const file = applyLocaleUpdate(
          undefined,
          { ...rest, meta: mergeMeta(input.meta ?? {}, meta), ...(input.name !== undefined && { name: input.name }) },
          {
            kind: input.kind,
            type: input.type,
            locale,
            defaultLocale,
            sourceContentEtag,
            now,
            by,
          },
        );
        checkMetaSize(file.meta, locale);
        files.set(locale, file);
        if (locale === defaultLocale) sourceContentEtag = contentEtagOf(file.content);
      }
      return gate.shared(() =>
        namingLock.run('names', async () => {
          await sync.fresh();
          if (input.kind === 'page') {
            for (const [locale, file] of files) assertPathnameFree(input.site!, locale, file.pathname!);
          } else if (input.name !== undefined) {
            assertNameFree(home, input.name);
          }
          // A fragment or data entry created without a name is named by its ID, so it can be looked up by name.
          const unnamed = input.kind !== 'page' && input.name === undefined;
          const id = uniqueId(
            idBase(input.kind, { ...input, pathname: files.get(defaultLocale)!.pathname }),
            (candidate) =>
              index.get(candidate) !== undefined ||
              (unnamed && nameOwner(home, candidate) !== undefined) ||
              onDisk(home, candidate, input.type, [...files.keys()]),
          );
          if (unnamed) for (const file of files.values()) file.name = id;
          const item = { ...home, id, type: input.type };
          return withItemLock(id, async () => {
            let etag = '';
            for (const [locale, file] of files) {
              const stored = await writeLocale(item, locale, file, by);
              if (locale === defaultLocale) etag = currentEtag(index.get(id)!, stored);
            }
            return { id, etag, created: now };
          });
        }),
      );
    },

    updateLocale,

    /** Moves a page locale to a new pathname; the old one is kept for redirects. */
    async move(site: string, id: string, locale: string, pathname: string, etag: string, by: Author) {
      await sync.fresh();
      siteConfig(site);
      const item = index.get(id);
      if (item?.kind !== 'page' || item.site !== site) {
        throw new QuireError('CONTENT_NOT_FOUND', `No page with ID "${id}" in site "${site}".`, { id, site });
      }
      requireLocale(item, locale);
      const moved = await updateLocale(id, locale, { pathname }, etag, by);
      return { previousPathname: moved.previousPathname!, etag: moved.etag };
    },

    derived,

    /** What is wrong with the stored files (see `computeProblems`). */
    problems: (): Promise<ContentProblem[]> => derived('problems', (items) => computeProblems(root, items)),

    /**
     * IDs that files of different items claim (made before IDs had a random part, or copied by
     * hand): the files served and those ignored, relative to the content root.
     */
    async idClashes(): Promise<IdClash[]> {
      await sync.fresh();
      const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
      return index
        .clashes()
        .map(({ id, served, ignored }) => ({ id, served: served.map(relative), ignored: ignored.map(relative) }));
    },

    /**
     * The item and locale a file (its path relative to the content root, `/`-separated) belongs
     * to, with the locale's title when it is stored (a deleted file has none); undefined for
     * anything that is not a content file.
     */
    async describeFile(relative: string): Promise<ContentFileSubject | undefined> {
      const parsed = parseContentPath(relative.split('/').join(path.sep));
      if (!parsed) return undefined;
      await sync.fresh();
      const { id, locale, kind, site, collection } = parsed;
      const title = index.get(id)?.locales.get(locale)?.file.meta.title;
      return {
        id,
        kind,
        ...(site !== undefined && { site }),
        collection,
        locale,
        ...(typeof title === 'string' && { title }),
      };
    },

    /** Runs a write that is not a content write (an upload) so that git tasks wait for it too. */
    shared: <T>(task: () => Promise<T>) => gate.shared(task),

    /**
     * Runs a task that rewrites files wholesale (a git commit or pull) with no content write in
     * flight; afterwards the index catches up with whatever the task changed on disk.
     */
    async exclusive<T>(task: () => Promise<T>): Promise<T> {
      return gate.exclusive(async () => {
        try {
          return await task();
        } finally {
          await sync.rescan();
        }
      });
    },

    /** A manifest as an object, optionally reduced to one locale. */
    manifestOf: (item: Item, locale?: string) =>
      entryOf(item, false, locale === undefined ? undefined : new Set([locale])),

    /** Deletes one locale, or (without `locale`) the whole item; `etag` is that locale's, or the default locale's. */
    async remove(id: string, locale: string | undefined, etag: string, by: Author) {
      return onItem(id, async (item) => {
        const { defaultLocale } = scopeOf(item);
        const target = locale ?? (item.locales.has(defaultLocale) ? defaultLocale : [...item.locales.keys()][0]!);
        checkEtag(item, target, etag);
        if (locale === undefined) {
          const codes = [...item.locales.keys()];
          for (const [done, code] of codes.entries()) {
            try {
              await deleteLocale(item, code);
            } catch (error) {
              // Half deleted: the locales already gone are announced one by one.
              for (const gone of codes.slice(0, done)) announce(id, gone, 'deleted', by ?? null);
              throw error;
            }
          }
          feed.announce({ kind: 'content', id, locale: null, etag: null, by: by ?? null, action: 'deleted' });
          return;
        }
        if (locale === defaultLocale && item.locales.size > 1) {
          throw new QuireError(
            'INVALID_REQUEST',
            `The default locale ${defaultLocale} of "${id}" cannot be deleted while other locales exist; delete them first, or delete the whole item.`,
            { id, locale },
          );
        }
        await deleteLocale(item, locale);
        announce(id, locale, 'deleted', by ?? null);
      });
    },

    /** Applies each operation on its own; one failure does not undo the others. */
    async batch(operations: Array<BatchOperation | RejectedOperation>, by: Author) {
      const results = [];
      for (const operation of operations) {
        try {
          if ('error' in operation) throw operation.error;
          const { etag } = await updateLocale(operation.id, operation.locale, operation.data, operation.etag, by);
          results.push({ id: operation.id, locale: operation.locale, updated: true, etag });
        } catch (error) {
          if (!(error instanceof QuireError)) throw error;
          results.push({
            id: operation.id,
            locale: operation.locale,
            updated: false,
            error: { code: error.code, message: error.message },
          });
        }
      }
      return results;
    },

    markReviewed: (id: string, locale: string, etag: string, by: Author) =>
      transition('mark-reviewed', id, locale, etag, by),
    breakInheritance: (id: string, locale: string, etag: string, by: Author) =>
      transition('break-inheritance', id, locale, etag, by),
    revertToInherited: (id: string, locale: string, etag: string, by: Author) =>
      transition('revert-to-inherited', id, locale, etag, by),
  };
}

export type ContentStore = ReturnType<typeof createContentStore>;
