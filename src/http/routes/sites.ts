import type { ContentQueries } from '../../content/queries.js';
import type { ContentStore } from '../../content/store.js';
import type { SitesSource } from '../../sites/sites-config.js';
import type { API } from '../endpoints.js';
import { guardEtag, quoteEtag } from '../etag-header.js';
import { jsonItems } from '../json-text.js';
import type { AreaHandlers } from '../register.js';

/** `/sites`, `/redirects`, `/untranslated/{targetLocale}` and the `/{site}/…` routes (registered last). */
export function siteHandlers(
  store: ContentStore,
  sites: SitesSource,
  queries: ContentQueries,
): AreaHandlers<typeof API.sites> {
  return {
    get: (_, c) => c.json(sites.get()),
    redirects: async ({ query }, c) => c.json(await queries.redirects(query)),
    untranslated: async ({ params, query }, c) => jsonItems(c, await queries.untranslated(params.targetLocale, query)),
    collections: async ({ params }, c) => {
      queries.requireAddressedSite(params.site);
      return c.json({ collections: await queries.collections(['page'], params.site) });
    },
    pages: async ({ params, query }, c) => {
      queries.requireAddressedSite(params.site);
      return c.json(await queries.sitePages(params.site, query.locale));
    },
    pathnameAvailable: async ({ params, query }, c) => {
      queries.requireAddressedSite(params.site);
      return c.json(await queries.pathnameAvailability(params.site, query.pathname, query.locale, query.excludeId));
    },
    move: async ({ params, body, ifMatch }, c) => {
      queries.requireAddressedSite(params.site);
      const { id, pathname, locale, etag } = body;
      const guard = guardEtag({ ifMatch, given: etag, field: 'etag' }, { required: true });
      const moved = await store.move(params.site, id, locale, pathname, guard, c.get('identity')?.email);
      c.header('ETag', quoteEtag(moved.etag));
      return c.json({ moved: true, previousPathname: moved.previousPathname, etag: moved.etag });
    },
  };
}
