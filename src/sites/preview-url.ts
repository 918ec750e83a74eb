import type { ContentManifest, SitesConfig } from '../client/types.js';

/** A sites.json domain as an origin: `shop.de` → `https://shop.de`; one with a scheme stays as it is. */
const asOrigin = (domain: string) => (domain.includes('://') ? domain : `https://${domain}`).replace(/\/+$/, '');

/**
 * The URL of a page locale on the running site, or undefined for what has no page of its own
 * (fragments, data entries, a locale without a pathname). `template` is the `admin.preview` option;
 * without it: the locale's domain from sites.json + the pathname, else the admin's origin + `/<locale>` + the pathname.
 */
export function previewUrl(
  entry: Pick<ContentManifest, 'kind' | 'site' | 'locales'>,
  locale: string,
  sites: SitesConfig | undefined,
  template: string | null,
  origin: string,
): string | undefined {
  const pathname = entry.locales[locale]?.pathname;
  if (entry.kind !== 'page' || !entry.site || pathname === undefined) return undefined;
  const domain = sites?.sites[entry.site]?.domains?.[locale];
  const values: Record<string, string> = {
    origin,
    domain: domain ? asOrigin(domain) : origin,
    site: entry.site,
    locale,
    pathname,
  };
  const fill = (text: string) => text.replace(/\{(origin|domain|site|locale|pathname)\}/g, (_, name) => values[name]!);
  if (template) return fill(template);
  return domain ? fill('{domain}{pathname}') : fill('{origin}/{locale}{pathname}');
}

/** A URL as the preview compares it: origin and pathname, without a trailing slash (but the root's). */
export function comparableUrl(url: string): string {
  const parsed = new URL(url);
  const pathname = parsed.pathname.length > 1 ? parsed.pathname.replace(/\/+$/, '') : parsed.pathname;
  return `${parsed.origin}${pathname}`;
}
