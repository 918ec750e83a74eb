import { Hono } from 'hono';
import type { ContentStore } from '../../content/store.js';
import { QuireError } from '../../errors.js';
import { computeRedirectIndex } from '../../sites/redirects.js';
import { RESERVED_SITE_NAMES, requireSite, type SitesSource } from '../../sites/sites-config.js';
import { untranslated } from '../../sites/untranslated.js';
import type { AppEnv } from '../app-env.js';
import { guardEtag, quoteEtag } from '../etag-header.js';
import { readJsonBody } from '../json-body.js';
import {
  MoveBodySchema, PagesQuerySchema, PathnameAvailableQuerySchema, RedirectsQuerySchema, UntranslatedParamsSchema, UntranslatedQuerySchema,
} from '../schemas/sites.js';
import { parseInput } from '../validate.js';

/** `GET /sites`, `GET /redirects` and `GET /untranslated/:targetLocale`: whole-content views. */
export function siteWideRoutes(store: ContentStore, sites: SitesSource) {
  return new Hono<AppEnv>()
    .get('/sites', (c) => c.json(sites.get()))
    .get('/redirects', async (c) => {
      const { site, locale } = parseInput(RedirectsQuerySchema, c.req.query(), 'query');
      const items = (await store.derived('redirects', computeRedirectIndex)).list
        .filter((redirect) => (site === undefined || redirect.site === site) && (locale === undefined || redirect.locale === locale));
      return c.json({ items, total: items.length });
    })
    .get('/untranslated/:targetLocale', async (c) => {
      const { targetLocale } = parseInput(UntranslatedParamsSchema, { targetLocale: c.req.param('targetLocale') }, 'path');
      const { excludeSites, includeUnpublished } = parseInput(UntranslatedQuerySchema, c.req.query(), 'query');
      const body = await store.selectionJson(
        `untranslated:${targetLocale}:${excludeSites.join(',')}:${includeUnpublished}`,
        (items) => untranslated(items, sites.get(), targetLocale, { excludeSites, includeUnpublished, now: Date.now() }),
      );
      return c.body(body, 200, { 'content-type': 'application/json; charset=utf-8' });
    });
}

/** The `/:site/...` routes, mounted last so that every fixed first segment wins over a site name. */
export function siteRoutes(store: ContentStore, sites: SitesSource, limits: { jsonBodyBytes: number }) {
  const requireAddressedSite = (site: string) => {
    if (RESERVED_SITE_NAMES.includes(site)) throw new QuireError('ROUTE_NOT_FOUND', `No API route at /${site}/…`);
    return requireSite(sites.get(), site);
  };

  return new Hono<AppEnv>()
    .get('/:site/collections', async (c) => {
      const site = c.req.param('site');
      requireAddressedSite(site);
      const collections = new Set((await store.list({ kind: 'page', site })).map((item) => item.collection));
      return c.json({ collections: [...collections].sort() });
    })
    .get('/:site/pages', async (c) => {
      const site = c.req.param('site');
      requireAddressedSite(site);
      const { locale } = parseInput(PagesQuerySchema, c.req.query(), 'query');
      const items = await store.list({ kind: 'page', site, ...(locale && { locales: [locale] }) });
      return c.json({ items: items.map((item) => store.manifestOf(item, locale)), total: items.length });
    })
    .get('/:site/pathname-available', async (c) => {
      const site = c.req.param('site');
      requireAddressedSite(site);
      const { pathname, locale, excludeId } = parseInput(PathnameAvailableQuerySchema, c.req.query(), 'query');
      const owner = (await store.list({ kind: 'page', site, locales: [locale] }))
        .find((item) => item.id !== excludeId && item.locales.get(locale)!.file.pathname === pathname);
      return c.json(owner ? { available: false, existingId: owner.id } : { available: true });
    })
    .post('/:site/move', async (c) => {
      const site = c.req.param('site');
      requireAddressedSite(site);
      const { id, pathname, locale, etag } = parseInput(MoveBodySchema, await readJsonBody(c.req.raw, limits.jsonBodyBytes), 'body');
      const guard = guardEtag({ ifMatch: c.req.header('if-match'), given: etag, field: 'etag' }, { required: true });
      const moved = await store.move(site, id, locale, pathname, guard, c.get('identity')?.email);
      c.header('ETag', quoteEtag(moved.etag));
      return c.json({ moved: true, previousPathname: moved.previousPathname, etag: moved.etag });
    });
}
