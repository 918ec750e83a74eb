import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { fsErrorCode, QuireError } from '../errors.js';
import { type SiteConfig, type SitesConfig, SitesSchema } from './sites-schema.js';

export type { SiteConfig, SitesConfig };

const DEFAULT_CONFIG: SitesConfig = { sites: {}, globalLocales: ['en'] };

/** A site by name; only the file's own keys count (`constructor` or `__proto__` is no site). */
export const siteNamed = (config: SitesConfig, name: string): SiteConfig | undefined =>
  Object.hasOwn(config.sites, name) ? config.sites[name] : undefined;

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
      } catch {
        /* a missing file is the default configuration */
      }
      if (cached?.signature !== signature) cached = { signature, value: load() };
      if (cached.value instanceof QuireError) throw cached.value;
      return cached.value;
    },
  };
}

export type SitesSource = ReturnType<typeof createSitesConfig>;
