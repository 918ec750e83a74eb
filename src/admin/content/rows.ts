import type { ContentManifest, FragmentManifest, LocaleManifest } from '../../client/index.js';
import { client, localesOf } from '../state/session.js';

export type Kind = 'page' | 'fragment' | 'data';

/** The browser's filters, as the URL query holds them. */
export interface Filters {
  kind: Kind;
  collection: string;
  type: string;
  published: string;
  localization: string;
  missing: string;
  review: boolean;
  q: string;
}

export function filtersOf(query: URLSearchParams): Filters {
  const kind = query.get('kind');
  return {
    kind: kind === 'fragment' || kind === 'data' ? kind : 'page',
    collection: query.get('collection') ?? '',
    type: query.get('type') ?? '',
    published: query.get('published') ?? '',
    localization: query.get('localization') ?? '',
    missing: query.get('missing') ?? '',
    review: query.get('review') === '1',
    q: query.get('q') ?? '',
  };
}

export function queryOf(filters: Filters): Record<string, string | undefined> {
  return {
    kind: filters.kind === 'page' ? undefined : filters.kind,
    collection: filters.collection || undefined,
    type: filters.type || undefined,
    published: filters.published || undefined,
    localization: filters.localization || undefined,
    missing: filters.missing || undefined,
    review: filters.review ? '1' : undefined,
    q: filters.q || undefined,
  };
}

export interface Row {
  item: ContentManifest;
  scope?: FragmentManifest['scope'];
  /** The locales the item is expected in, default first. */
  locales: string[];
  title: string;
  address: string;
  /** Lowercased text the search box matches. */
  haystack: string;
}

function rowOf(item: ContentManifest, locale: string, scope?: FragmentManifest['scope']): Row {
  const locales = localesOf(item.site);
  const records = Object.values(item.locales) as LocaleManifest[];
  const shown = item.locales[locale] ?? item.locales[locales[0]!] ?? records[0];
  const title = typeof shown?.meta.title === 'string' && shown.meta.title ? shown.meta.title : '(untitled)';
  const address = shown?.pathname ?? shown?.name ?? '';
  const haystack = [item.id, ...records.flatMap((record) => [record.meta.title, record.pathname, record.name])]
    .filter((text): text is string => typeof text === 'string')
    .join('\n')
    .toLowerCase();
  return { item, scope, locales, title, address, haystack };
}

/** The rows for a site and filters, from the API's list endpoints (the text search is applied by the caller). */
export async function loadRows(site: string, locale: string, filters: Filters): Promise<Row[]> {
  const listQuery = {
    kind: filters.kind,
    collection: filters.collection || undefined,
    type: (filters.type || undefined) as 'visual' | 'mdx' | 'json' | undefined,
    published: (filters.published || undefined) as 'true' | 'false' | undefined,
    localization: (filters.localization || undefined) as 'complete' | 'partial' | 'one' | undefined,
    missingLocales: filters.missing || undefined,
  };
  const listed = filters.review
    ? (await client.content.needsReview(locale, filters.kind === 'data' ? {} : { kind: filters.kind })).items.filter(
        (item) => item.kind === filters.kind && (!filters.collection || item.collection === filters.collection),
      )
    : (await client.content.list(filters.kind === 'page' ? { ...listQuery, site } : listQuery)).items;

  let rows: Row[];
  if (filters.kind === 'fragment') {
    // The fragment list knows which fragments this site sees (site ones shadow global ones) and their scope.
    const visible = await client.fragments.list({
      site: site || undefined,
      collection: filters.collection || undefined,
    });
    const scopes = new Map(visible.items.map((item) => [item.id, item.scope]));
    rows = listed
      .filter((item) => scopes.has(item.id) || !site)
      .map((item) => rowOf(item, locale, scopes.get(item.id) ?? (item.site ? 'site' : 'global')));
  } else {
    rows = listed.filter((item) => filters.kind !== 'page' || item.site === site).map((item) => rowOf(item, locale));
  }
  return rows.sort((a, b) => a.address.localeCompare(b.address) || a.item.id.localeCompare(b.item.id));
}

export function collectionsFor(kind: Kind, site: string): Promise<{ collections: string[] }> {
  if (kind === 'page') return site ? client.sites.collections(site) : Promise.resolve({ collections: [] });
  if (kind === 'fragment') return client.fragments.collections();
  return client.data.collections();
}
