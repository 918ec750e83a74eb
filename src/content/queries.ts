import { QuireError } from '../errors.js';
import { REDIRECT_INDEX } from '../sites/redirects.js';
import { requireSite, type SitesSource } from '../sites/sites-config.js';
import { RESERVED_SITE_NAMES } from '../sites/sites-schema.js';
import type { ListFilters } from './filters.js';
import { findFragment, fragmentsInScope } from './fragment-scope.js';
import { findNamed } from './names.js';
import type { ContentStore } from './store.js';
import type { Item, ItemHome } from './types.js';

export type FragmentWord = 'fragment' | 'block';
export type Availability = { available: true } | { available: false; existingId: string };

const availability = (owner: string | undefined): Availability =>
  owner === undefined ? { available: true } : { available: false, existingId: owner };

function notFound(what: string, name: string, collection: string, locale: string | undefined): QuireError {
  const where = `in collection "${collection}"${locale ? ` with locale ${locale}` : ''}`;
  return new QuireError('CONTENT_NOT_FOUND', `No ${what} named "${name}" ${where}.`, { name, collection, locale });
}

/**
 * The read-only questions the API asks of the content: lists, lookups by name, availability and
 * the site-wide views. Each answer is a plain value (manifests, names, IDs), never the store's items.
 */
export function createContentQueries(store: ContentStore, sites: SitesSource) {
  const requireKnownSite = (site: string | undefined) => {
    if (site !== undefined) requireSite(sites.get(), site);
  };

  const manifestsOf = (items: readonly Item[], locale?: string) => ({
    items: items.map((item) => store.manifestOf(item, locale)),
    total: items.length,
  });

  /** A fragment as `/fragments` or `/blocks` reports it: the same item under the word of the route. */
  const fragmentManifest = (item: Item, word: FragmentWord, locale?: string) => ({
    ...store.manifestOf(item, locale),
    kind: word,
  });

  const hasLocale = (item: Item, locale: string | undefined) => locale === undefined || item.locales.has(locale);

  return {
    /**
     * A site named by the first path segment (`/{site}/pages`): one of the API's own first segments
     * is a route that does not exist, not a site.
     */
    requireAddressedSite(site: string): void {
      if (RESERVED_SITE_NAMES.includes(site)) throw new QuireError('ROUTE_NOT_FOUND', `No API route at /${site}/…`);
      requireSite(sites.get(), site);
    },

    /** Collections of pages (in one site, when given) and fragments; see `store.collections`. */
    collections: store.collections,

    async sitePages(site: string, locale: string | undefined) {
      return manifestsOf(await store.list({ kind: 'page', site, ...(locale && { locales: [locale] }) }), locale);
    },

    async pathnameAvailability(
      site: string,
      pathname: string,
      locale: string,
      excludeId?: string,
    ): Promise<Availability> {
      return availability(await store.pathnameOwner(site, locale, pathname, excludeId));
    },

    async nameAvailability(home: ItemHome, name: string, options: { excludeId?: string; locale?: string }) {
      requireKnownSite(home.site);
      return availability(await store.nameOwner(home, name, { exceptId: options.excludeId, locale: options.locale }));
    },

    async dataEntries(filters: Pick<ListFilters, 'collection'>, locale: string | undefined) {
      return manifestsOf(await store.list({ kind: 'data', ...filters, ...(locale && { locales: [locale] }) }), locale);
    },

    async dataEntry(collection: string, name: string, locale: string | undefined) {
      const item = findNamed(await store.list({ kind: 'data', collection }), { kind: 'data', collection }, name);
      if (!item || !hasLocale(item, locale)) throw notFound('data entry', name, collection, locale);
      return store.manifestOf(item, locale);
    },

    /** With a site: its own fragments and the global ones they do not shadow, each with its `scope`. */
    async fragments(word: FragmentWord, query: { collection?: string; locale?: string; site?: string }) {
      const { collection, locale, site } = query;
      requireKnownSite(site);
      const fragments = await store.list({ kind: 'fragment', collection, ...(locale && { locales: [locale] }) });
      const items = fragmentsInScope(fragments, site).map(({ item, scope }) =>
        site === undefined ? fragmentManifest(item, word, locale) : { ...fragmentManifest(item, word, locale), scope },
      );
      return { items, total: items.length };
    },

    /** The site's own fragment of that name first (with a site), then the global one. */
    async fragment(word: FragmentWord, name: string, query: { collection: string; locale?: string; site?: string }) {
      const { collection, locale, site } = query;
      requireKnownSite(site);
      const item = findFragment(await store.list({ kind: 'fragment', collection }), collection, name, site);
      if (!item || !hasLocale(item, locale)) throw notFound(word, name, collection, locale);
      return fragmentManifest(item, word, locale);
    },

    async redirects(filter: { site?: string; locale?: string }) {
      const { list } = await store.derived(REDIRECT_INDEX);
      const items = list.filter(
        (redirect) =>
          (filter.site === undefined || redirect.site === filter.site) &&
          (filter.locale === undefined || redirect.locale === filter.locale),
      );
      return { items, total: items.length };
    },

    /** The manifests (JSON text) of the items that lack `targetLocale`, their selection kept per query. */
    untranslated(targetLocale: string, options: { excludeSites: string[]; includeUnpublished: boolean }) {
      return store.selection({ of: 'untranslated', locale: targetLocale, ...options });
    },
  };
}

export type ContentQueries = ReturnType<typeof createContentQueries>;
