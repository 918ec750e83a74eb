import type { ContentManifest, SitesConfig } from '../client/types.js';

/** A sites.json domain as an origin: `shop.de` → `https://shop.de`; one with a scheme stays as it is. */
const asOrigin = (domain: string) => (domain.includes('://') ? domain : `https://${domain}`).replace(/\/+$/, '');

/** The `admin.preview` option: one URL template, or one per site (a site without one gets the built-in rule). */
export type PreviewOption = string | Record<string, string> | null;

/**
 * The URL of a page locale on the running site, or undefined for what has no page of its own
 * (fragments, data entries, a locale without a pathname). `option` is the `admin.preview` option,
 * whose templates take `{origin}`, `{domain}`, `{site}`, `{locale}`, `{localePrefix}` (empty for the
 * site's default locale, else `/<locale>`) and `{pathname}`. Without a template: the locale's domain
 * from sites.json + the pathname, else the admin's origin + `/<locale>` + the pathname.
 */
export function previewUrl(
  entry: Pick<ContentManifest, 'kind' | 'site' | 'locales'>,
  locale: string,
  sites: SitesConfig | undefined,
  option: PreviewOption,
  origin: string,
): string | undefined {
  const pathname = entry.locales[locale]?.pathname;
  if (entry.kind !== 'page' || !entry.site || pathname === undefined) return undefined;
  const site = sites?.sites[entry.site];
  const domain = site?.domains?.[locale];
  const values: Record<string, string> = {
    origin,
    domain: domain ? asOrigin(domain) : origin,
    site: entry.site,
    locale,
    localePrefix: locale === site?.defaultLocale ? '' : `/${locale}`,
    pathname,
  };
  const fill = (text: string) =>
    text.replace(/\{(origin|domain|site|localePrefix|locale|pathname)\}/g, (_, name) => values[name]!);
  const template = typeof option === 'string' ? option : option?.[entry.site];
  if (template) return fill(template);
  return domain ? fill('{domain}{pathname}') : fill('{origin}/{locale}{pathname}');
}

/** A URL as the preview compares it: origin and pathname, without a trailing slash (but the root's). */
export function comparableUrl(url: string): string {
  const parsed = new URL(url);
  const pathname = parsed.pathname.length > 1 ? parsed.pathname.replace(/\/+$/, '') : parsed.pathname;
  return `${parsed.origin}${pathname}`;
}
