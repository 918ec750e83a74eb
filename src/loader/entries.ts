import { isValidPathname } from '../content/codes.js';
import { isPublished } from '../content/filters.js';
import { fragmentsInScope } from '../content/fragment-scope.js';
import type { ItemIndex } from '../content/item-index.js';
import type { Item, StoredLocale } from '../content/types.js';
import { contentHolder, effectiveContentEtag, isStale, sourceOf } from '../content/views.js';
import type { ResolvedLoaderOptions } from './options.js';
import type { EntryData } from './schema.js';

/** An entry's data but its content, which is read from a file only when the entry changed. */
export type EntryHeader = EntryData extends infer Data ? (Data extends unknown ? Omit<Data, 'content'> : never) : never;

export interface WantedEntry {
  /** `<item ID>/<locale>`. */
  id: string;
  data: EntryHeader;
  /** The locale whose content the entry shows (its own, or its source's while it inherits); none when there is none. */
  holder: StoredLocale | undefined;
  /** That content's etag: with the header, it says whether the entry changed. */
  contentEtag: string;
  /** The locale's own file. */
  path: string;
  /** The file holding the body it shows: its own, or its default locale's while it inherits. */
  bodyPath: string;
}

/**
 * The entry ID of one item's locale. Item IDs are unique across the content root and survive
 * moves (pathnames do not, and the same pathname exists in every site and locale), and neither IDs
 * nor locale codes contain a slash, so `<id>/<locale>` is unique, stable and easy to split.
 */
export const entryIdOf = (itemId: string, locale: string) => `${itemId}/${locale}`;

/** The items of the collection: its kind, collection and site (fragments: as seen from the site). */
function itemsInView(index: ItemIndex, options: ResolvedLoaderOptions): Item[] {
  const items = index
    .sorted()
    .filter(
      (item) =>
        item.kind === options.kind && (options.collection === undefined || item.collection === options.collection),
    );
  if (options.site === undefined) return items;
  if (options.kind === 'fragment') return fragmentsInScope(items, options.site).map(({ item }) => item);
  return items.filter((item) => item.site === options.site);
}

function entryHeader(item: Item, locale: string, stored: StoredLocale, published: boolean): EntryHeader {
  const { file } = stored;
  const common = {
    itemId: item.id,
    locale,
    type: item.type,
    collection: item.collection,
    meta: file.meta,
    ...(file.publishAt !== undefined && { publishAt: file.publishAt }),
    ...(file.unpublishAt !== undefined && { unpublishAt: file.unpublishAt }),
    published,
    ...(file.inheritance && {
      inheritance: { state: file.inheritance.state, from: file.inheritance.from, stale: isStale(item, stored) },
    }),
    created: file.created,
    modified: file.modified,
  };
  // A hand-written fragment or data file may lack a name; the API names such items by their ID.
  const name = file.name ?? item.id;
  switch (item.kind) {
    case 'page':
      return {
        ...common,
        kind: 'page',
        site: item.site!,
        pathname: file.pathname ?? '',
        ...(file.previousPathnames?.some(isValidPathname) && {
          previousPathnames: file.previousPathnames.filter(isValidPathname),
        }),
      };
    case 'fragment':
      return { ...common, kind: 'fragment', ...(item.site !== undefined && { site: item.site }), name };
    case 'data':
      return { ...common, kind: 'data', name };
  }
}

/** Every entry the collection should hold at `now`: one per item and locale, drafts only when asked for. */
export function wantedEntries(
  index: ItemIndex,
  options: ResolvedLoaderOptions,
  includeDrafts: boolean,
  now: number,
): WantedEntry[] {
  const wanted: WantedEntry[] = [];
  for (const item of itemsInView(index, options)) {
    for (const locale of [...item.locales.keys()].sort()) {
      if (options.locales && !options.locales.has(locale)) continue;
      const stored = item.locales.get(locale)!;
      // A page without a pathname, or with one that is not a path on the site, cannot be served;
      // the API never writes one, a hand edit or a pull might (the file read logged it).
      if (item.kind === 'page' && !(stored.file.pathname && isValidPathname(stored.file.pathname))) continue;
      const published = isPublished(stored.file, now);
      if (!published && !includeDrafts) continue;
      const bodyPath = (sourceOf(item, stored) ?? stored).path;
      wanted.push({
        id: entryIdOf(item.id, locale),
        data: entryHeader(item, locale, stored, published),
        holder: contentHolder(item, stored),
        contentEtag: effectiveContentEtag(item, stored),
        path: stored.path,
        bodyPath,
      });
    }
  }
  return wanted;
}
