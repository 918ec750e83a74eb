import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { LOCALE_PATTERN, NAME_PATTERN } from '../content/codes.js';
import { QuireError, fsErrorCode } from '../errors.js';

/** First path segments of the API; a site with one of these names could never be addressed. */
export const RESERVED_SITE_NAMES = [
  'content', 'data', 'fragments', 'blocks', 'assets', 'git', 'auth', 'sites', 'untranslated', 'redirects', 'openapi.json',
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
    v.record(v.pipe(v.string(), v.regex(NAME_PATTERN, 'is not a valid site name (lowercase letters, digits, "_" and "-")')), SiteSchema),
    v.check((sites) => !Object.keys(sites).some((name) => RESERVED_SITE_NAMES.includes(name)),
      (issue) => `site name ${Object.keys(issue.input).filter((n) => RESERVED_SITE_NAMES.includes(n)).map((n) => `"${n}"`).join(', ')} collides with a fixed API route; rename the site`),
  ),
  globalLocales: v.pipe(v.array(Locale), v.minLength(1, 'must list at least one locale')),
});

export type SitesConfig = v.InferOutput<typeof SitesSchema>;
export type SiteConfig = SitesConfig['sites'][string];

const DEFAULT_CONFIG: SitesConfig = { sites: {}, globalLocales: ['en'] };

/** A site by name; only the file's own keys count (`constructor` or `__proto__` is no site). */
export const siteNamed = (config: SitesConfig, name: string): SiteConfig | undefined =>
  (Object.hasOwn(config.sites, name) ? config.sites[name] : undefined);

/** The site named `name`, or SITE_NOT_FOUND. */
export function requireSite(config: SitesConfig, name: string): SiteConfig {
  const site = siteNamed(config, name);
  if (!site) throw new QuireError('SITE_NOT_FOUND', `No site named "${name}" in sites.json.`, { site: name });
  return site;
}

/** `sites.json`, re-read whenever the file changes (one stat per call), validated on every read. */
export function createSitesConfig(contentRoot: string) {
  const file = path.join(contentRoot, 'sites.json');
  let cached: { signature: string; value: SitesConfig | QuireError } | undefined;

  function load(): SitesConfig | QuireError {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if (fsErrorCode(error) === 'ENOENT') return DEFAULT_CONFIG;
      return new QuireError('INTERNAL_ERROR', `${file} could not be read: ${(error as Error).message}`, { file });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return new QuireError('INTERNAL_ERROR', `${file} is not valid JSON: ${(error as Error).message}`, { file });
    }
    const parsed = v.safeParse(SitesSchema, raw);
    if (parsed.success) return parsed.output;
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'} ${issue.message}`);
    return new QuireError('INTERNAL_ERROR', `${file} is invalid: ${problems.join('; ')}`, { file, problems });
  }

  return {
    file,
    /** The current configuration; throws INTERNAL_ERROR naming the file when it is invalid. */
    get(): SitesConfig {
      let signature = 'missing';
      try {
        const stat = fs.statSync(file);
        signature = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
      } catch { /* a missing file is the default configuration */ }
      if (cached?.signature !== signature) cached = { signature, value: load() };
      if (cached.value instanceof QuireError) throw cached.value;
      return cached.value;
    },
  };
}

export type SitesSource = ReturnType<typeof createSitesConfig>;
