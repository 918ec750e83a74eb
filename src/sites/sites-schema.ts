import * as v from 'valibot';
import { LOCALE_PATTERN, NAME_PATTERN } from '../content/codes.js';

/** First path segments of the API; a site with one of these names could never be addressed. */
export const RESERVED_SITE_NAMES = [
  'content',
  'data',
  'fragments',
  'blocks',
  'assets',
  'git',
  'auth',
  'sites',
  'untranslated',
  'redirects',
  'openapi.json',
];

const Locale = v.pipe(v.string(), v.regex(LOCALE_PATTERN, 'is not a locale code such as en or pt-BR'));
const SiteSchema = v.pipe(
  v.object({
    locales: v.pipe(v.array(Locale), v.minLength(1, 'must list at least one locale')),
    defaultLocale: Locale,
    domains: v.optional(v.record(v.string(), v.string())),
  }),
  v.check((site) => site.locales.includes(site.defaultLocale), 'defaultLocale must be one of locales'),
);
export const SitesSchema = v.object({
  sites: v.pipe(
    v.record(
      v.pipe(v.string(), v.regex(NAME_PATTERN, 'is not a valid site name (lowercase letters, digits, "_" and "-")')),
      SiteSchema,
    ),
    v.check(
      (sites) => !Object.keys(sites).some((name) => RESERVED_SITE_NAMES.includes(name)),
      (issue) =>
        `site name ${Object.keys(issue.input)
          .filter((n) => RESERVED_SITE_NAMES.includes(n))
          .map((n) => `"${n}"`)
          .join(', ')} collides with a fixed API route; rename the site`,
    ),
  ),
  globalLocales: v.pipe(v.array(Locale), v.minLength(1, 'must list at least one locale')),
});

export type SitesConfig = v.InferOutput<typeof SitesSchema>;
export type SiteConfig = SitesConfig['sites'][string];
