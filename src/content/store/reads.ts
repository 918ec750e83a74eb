import path from 'node:path';
import { QuireError } from '../../errors.js';
import type { SitesConfig } from '../../sites/sites-config.js';
import { isUntranslated } from '../../sites/untranslated.js';
import { filterInSlices, forEachInSlices } from '../../util/event-loop-slices.js';
import type { ItemMatcher } from '../derived-cache.js';
import { canonicalJson } from '../etag.js';
import { type ListFilters, matchesFilters } from '../filters.js';
import type { IdClash } from '../item-index.js';
import { parseContentPath } from '../paths.js';
import type { Item, ItemHome, Kind } from '../types.js';
import {
  contentHolder,
  currentEtag,
  effectiveContent,
  effectiveContentEtag,
  entryOf,
  hasSourceChanged,
  isStale,
  localizedEntryOf,
} from '../views.js';
import { withContents } from './contents.js';
import type { StoreContext } from './context.js';
import { expectedLocales, nameOwner, pathnameOwner } from './rules.js';

/** A value computed from all items and kept until the index changes (or a publication date passes); its name keys it. */
export interface Derivation<T> {
  readonly name: string;
  compute(items: Iterable<Item>): T;
}

/** The lists the store keeps and updates item by item, each keyed by what it asks. */
export type Selection =
  | { of: 'list'; filters: ListFilters }
  /** Stale inherited locales; with `customized`, also customized ones whose source changed since. */
  | { of: 'needs-review'; locale: string; kind?: Kind; customized: boolean }
  | { of: 'untranslated'; locale: string; excludeSites: string[]; includeUnpublished: boolean };

/** What a content file is, for naming it to an editor (the git panel). */
export interface ContentFileSubject extends ItemHome {
  id: string;
  locale: string;
  title?: string;
}

function matcherOf(selection: Selection, config: SitesConfig): ItemMatcher {
  switch (selection.of) {
    case 'list': {
      const { filters } = selection;
      return (item, now) =>
        matchesFilters(item, filters, filters.localization ? expectedLocales(item, config) : [], now);
    }
    case 'needs-review': {
      const { locale, kind, customized } = selection;
      return (item) => {
        const stored = item.locales.get(locale);
        if ((kind && item.kind !== kind) || stored === undefined) return false;
        return isStale(item, stored) || (customized && hasSourceChanged(item, stored));
      };
    }
    case 'untranslated': {
      const { locale, ...options } = selection;
      return (item, now) => isUntranslated(item, config, locale, { ...options, now });
    }
  }
}

/** The store's reads: every one answers from the index once it has caught up with the files. */
export function createReads(ctx: StoreContext) {
  const { index, sync, sites, cache } = ctx;
  // A selection may depend on sites.json (expected locales), so its cache key names the configuration read.
  const configKeys = new WeakMap<SitesConfig, string>();
  const keyOf = (config: SitesConfig) => {
    let key = configKeys.get(config);
    if (key === undefined) {
      key = canonicalJson(config);
      configKeys.set(config, key);
    }
    return key;
  };

  /** The texts of a selection's items, by the IDs array they were rendered from (replaced whenever one of them changes). */
  const rendered = new WeakMap<readonly string[], readonly string[]>();

  return {
    /**
     * The manifests of the ID-ordered items a selection holds, each as ASCII-only JSON text. The
     * selection is kept as IDs until sites.json or a publication date changes, and updated item by
     * item as items change; the texts are kept beside it until one of its items changes, and each
     * manifest is rendered once per change of its item. So a repeated list costs a lookup, and the
     * first one after a write a lookup per item, never a string of the whole answer.
     * Rendering many (a first list of 100k items) lets the event loop turn between slices; an item
     * that changes meanwhile is listed as it is when its turn comes, and one deleted is left out.
     */
    async selection(selection: Selection): Promise<readonly string[]> {
      await sync.fresh();
      const config = sites.get();
      const ids = await cache.selection(`${canonicalJson(selection)}\0${keyOf(config)}`, () =>
        matcherOf(selection, config),
      );
      const kept = rendered.get(ids);
      if (kept) return kept;
      const texts: string[] = [];
      await forEachInSlices(ids, (id) => {
        const item = index.get(id);
        if (item) texts.push(index.cachedManifest(id, () => JSON.stringify(entryOf(item))));
      });
      rendered.set(ids, texts);
      return texts;
    },

    /** A value computed from all items, recomputed only after the index changed (or a publication date passed). */
    async derived<T>(derivation: Derivation<T>): Promise<T> {
      await sync.fresh();
      return cache.get(`derived:${derivation.name}`, () => derivation.compute(index.items.values()));
    },

    /** Items matching the filters, in ID order. */
    async list(filters: ListFilters): Promise<Item[]> {
      await sync.fresh();
      const matches = matcherOf({ of: 'list', filters }, sites.get());
      const now = Date.now();
      return filterInSlices(await index.sortedInSlices(), (item) => matches(item, now));
    },

    get: (id: string) =>
      withContents(ctx, async (load) => {
        await sync.fresh();
        const item = ctx.requireItem(id);
        return entryOf(item, await load(item.locales.values()));
      }),

    /** One locale as the JSON of its localized entry, and its etag. */
    getLocale: (id: string, locale: string) =>
      withContents(ctx, async (load) => {
        await sync.fresh();
        const item = ctx.requireItem(id);
        const stored = ctx.requireLocale(item, locale);
        const json = await ctx.localeAnswers(item, locale, stored, async () => {
          const contentOf = await load([contentHolder(item, stored)].filter((holder) => holder !== undefined));
          return JSON.stringify(localizedEntryOf(item, locale, stored, contentOf));
        });
        return { json, etag: currentEtag(item, stored) };
      }),

    /**
     * What reviewing a translation compares: the content etag it was last reviewed (or customized)
     * at, its default locale's content now, and the translation itself. A locale that does not
     * inherit (the default locale among them) has nothing to review.
     */
    reviewBasis: (id: string, locale: string) =>
      withContents(ctx, async (load) => {
        await sync.fresh();
        const item = ctx.requireItem(id);
        const stored = ctx.requireLocale(item, locale);
        const inheritance = stored.file.inheritance;
        if (!inheritance) {
          throw new QuireError(
            'INVALID_REQUEST',
            `Locale ${locale} of "${id}" does not inherit from another locale, so there is nothing to review.`,
            { id, locale, state: null },
          );
        }
        const source = ctx.requireLocale(item, inheritance.from);
        const contentOf = await load([stored, source]);
        return {
          item: { id: item.id, kind: item.kind, type: item.type, collection: item.collection, site: item.site },
          inheritance,
          stale: isStale(item, stored),
          sourceChanged: hasSourceChanged(item, stored),
          translation: {
            etag: currentEtag(item, stored),
            meta: stored.file.meta,
            content: effectiveContent(item, stored, contentOf),
            contentEtag: effectiveContentEtag(item, stored),
          },
          source: {
            path: source.path,
            extension: path.extname(source.path).slice(1) as 'json' | 'mdx',
            meta: source.file.meta,
            content: contentOf(source) ?? {},
            contentEtag: source.contentEtag,
          },
        };
      }),

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
      return pathnameOwner(ctx, site, locale, pathname, exceptId);
    },

    /** The ID of the item in this scope named `name` (in any locale, or in `locale`), other than `exceptId`. */
    async nameOwner(home: ItemHome, name: string, options: { exceptId?: string; locale?: string } = {}) {
      await sync.fresh();
      return nameOwner(ctx, home, name, options);
    },

    /**
     * IDs that files of different items claim (made before IDs had a random part, or copied by
     * hand): the files served and those ignored, relative to the content root.
     */
    async idClashes(): Promise<IdClash[]> {
      await sync.fresh();
      const relative = (file: string) => path.relative(ctx.root, file).split(path.sep).join('/');
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

    /** A manifest as an object, optionally reduced to one locale. */
    manifestOf: (item: Item, locale?: string) =>
      entryOf(item, undefined, locale === undefined ? undefined : new Set([locale])),
  };
}
