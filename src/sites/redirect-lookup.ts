import type { ContentStore } from '../content/store.js';
import { computeRedirectIndex } from './redirects.js';
import { siteNamed, type SitesSource } from './sites-config.js';

/**
 * Where a request for a moved page's old URL should go, or null. When the request's host is one
 * of a site's `domains`, only that site and locale are considered; otherwise a pathname that
 * redirects to one target only.
 */
export function createRedirectLookup(store: ContentStore, sites: SitesSource) {
  return async (url: URL): Promise<string | null> => {
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const candidates = (await store.derived('redirects', computeRedirectIndex)).byPathname.get(pathname);
    if (!candidates) return null;
    const host = url.hostname;
    const domainMatches = candidates.filter((redirect) => {
      const domains = siteNamed(sites.get(), redirect.site)?.domains;
      const domain = domains && Object.hasOwn(domains, redirect.locale) ? domains[redirect.locale] : undefined;
      return domain !== undefined && domain.replace(/^https?:\/\//, '').split(/[:/]/)[0] === host;
    });
    const targets = new Set((domainMatches.length > 0 ? domainMatches : candidates).map((redirect) => redirect.to));
    if (targets.size !== 1) return null;
    // Built as a URL on the request's own origin, so that whatever a file holds, the answer stays on the site.
    const location = new URL(`${[...targets][0]}${url.search}`, url);
    return location.origin === url.origin ? `${location.pathname}${location.search}` : null;
  };
}
