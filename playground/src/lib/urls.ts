/**
 * Where the playground serves each site's pages. On the web the marketing site would have a domain
 * per locale (sites.json lists example.com, example.de, example.fr) and the docs site its own host;
 * the playground has one host, so:
 *   marketing (the main site)  default locale at its pathnames, others under /<locale>:
 *                              /pricing, /de/preise, /fr/a-propos
 *   docs                       everything under /docs:  /docs/intro, /docs/de/einfuehrung
 * Both sites use `/` as their home, hence the /docs base. A moved page's old URL is answered by
 * Quire's redirect middleware at the old pathname itself (/plans → 301 → /pricing).
 */
const SITES: Record<string, { base: string; defaultLocale: string }> = {
  marketing: { base: '', defaultLocale: 'en' },
  docs: { base: '/docs', defaultLocale: 'en' },
};

const siteOf = (site: string) => SITES[site] ?? { base: `/${site}`, defaultLocale: 'en' };

/** The playground URL of a page: site base, then the locale unless it is the default, then the pathname. */
export function urlOf(site: string, locale: string, pathname: string): string {
  const { base, defaultLocale } = siteOf(site);
  const url = `${base}${locale === defaultLocale ? '' : `/${locale}`}${pathname === '/' ? '' : pathname}`;
  return url || '/';
}

/** Whether `locale` is the site's default locale (the one the others inherit from). */
export const isDefaultLocale = (site: string, locale: string) => siteOf(site).defaultLocale === locale;
