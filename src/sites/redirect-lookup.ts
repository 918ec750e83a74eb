import { pathnameKey } from '../content/codes.js';
import type { ContentStore } from '../content/store.js';
import { REDIRECT_INDEX } from './redirects.js';
import { type SitesSource, siteNamed } from './sites-config.js';

/**
 * A request URL's pathname as stored pathnames are written: percent-decoded (a browser sends
 * `/über-uns` as `/%C3%BCber-uns`), without a trailing slash, in `pathnameKey` form. Null for a
 * malformed percent-encoding, which is simply not a moved page.
 */
function requestedPathname(url: URL): string | null {
  const raw = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  try {
    return pathnameKey(decodeURIComponent(raw));
  } catch {
    return null;
  }
}

/** A stored pathname as a `Location` path: percent-encoded UTF-8, and never read as a query or fragment. */
const encodePathname = (pathname: string) => encodeURI(pathname).replace(/[?#]/g, encodeURIComponent);

/** The host name of a `domains` entry (`https://shop.example`, `shop.example:8080`, `bücher.example`), as `URL.hostname` gives it. */
function hostOf(domain: string): string | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(domain) ? domain : `http://${domain}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Where a request for a moved page's old URL should go, or null. When the request's host is one
 * of a site's `domains`, only that site and locale are considered; otherwise a pathname that
 * redirects to one target only. The target keeps the request's query string.
 */
export function createRedirectLookup(store: ContentStore, sites: SitesSource) {
  return async (url: URL): Promise<string | null> => {
    const pathname = requestedPathname(url);
    if (pathname === null) return null;
    const candidates = (await store.derived(REDIRECT_INDEX)).byPathname.get(pathname);
    if (!candidates) return null;
    const domainMatches = candidates.filter((redirect) => {
      const domains = siteNamed(sites.get(), redirect.site)?.domains;
      const domain = domains && Object.hasOwn(domains, redirect.locale) ? domains[redirect.locale] : undefined;
      return domain !== undefined && hostOf(domain) === url.hostname;
    });
    const targets = new Set((domainMatches.length > 0 ? domainMatches : candidates).map((redirect) => redirect.to));
    if (targets.size !== 1) return null;
    // Built as a URL on the request's own origin, so that whatever a file holds, the answer stays on the site.
    const location = new URL(`${encodePathname([...targets][0]!)}${url.search}`, url);
    return location.origin === url.origin ? `${location.pathname}${location.search}` : null;
  };
}
