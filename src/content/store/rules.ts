import { QuireError } from '../../errors.js';
import { requireSite, type SitesConfig, siteNamed } from '../../sites/sites-config.js';
import { findNamed } from '../names.js';
import type { Item, ItemHome, Meta } from '../types.js';
import { currentEtag } from '../views.js';
import type { StoreContext } from './context.js';

// The rules a write must keep (docs/interface.md, "Codes and names", "Etags"), as functions of the store's context.

/** The default locale and the configured locales of an item's scope: its site's, or the global ones. */
export function scopeOf(ctx: StoreContext, home: ItemHome): { defaultLocale: string; locales: readonly string[] } {
  if (home.site !== undefined) {
    const site = requireSite(ctx.sites.get(), home.site);
    return { defaultLocale: site.defaultLocale, locales: site.locales };
  }
  const { globalLocales } = ctx.sites.get();
  return { defaultLocale: globalLocales[0]!, locales: globalLocales };
}

/** The locales sites.json expects an item to have. */
export function expectedLocales(item: Item, config: SitesConfig): readonly string[] {
  if (item.site === undefined) return config.globalLocales;
  return siteNamed(config, item.site)?.locales ?? [];
}

export function requireConfiguredLocale(home: ItemHome, locale: string, locales: readonly string[]): void {
  if (!locales.includes(locale)) {
    const where = home.site !== undefined ? `site "${home.site}"` : 'globalLocales';
    throw new QuireError(
      'INVALID_REQUEST',
      `Locale ${locale} is not configured for ${where} in sites.json (configured: ${locales.join(', ')}).`,
      { field: 'locale', locale, allowed: locales },
    );
  }
}

export function checkMetaSize(ctx: StoreContext, meta: Meta, locale: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(meta));
  if (bytes > ctx.metadataBytes) {
    throw new QuireError(
      'METADATA_TOO_LARGE',
      `The meta of locale ${locale} is ${bytes} bytes; the limit is ${ctx.metadataBytes} (limits.metadataBytes).`,
      { locale, bytes, limit: ctx.metadataBytes },
    );
  }
}

/** A write names the version it changes by its etag: any other version answers STALE_WRITE. */
export function checkEtag(ctx: StoreContext, item: Item, locale: string, etag: string): void {
  const current = currentEtag(item, ctx.requireLocale(item, locale));
  if (etag !== current) {
    throw new QuireError(
      'STALE_WRITE',
      `Content "${item.id}" (${locale}) changed since it was read: reload it and apply your change again.`,
      { id: item.id, locale, currentEtag: current },
    );
  }
}

/** The page of the site that has this pathname in this locale (other than `exceptId`). */
export function pathnameOwner(
  ctx: StoreContext,
  site: string,
  locale: string,
  pathname: string,
  exceptId?: string,
): string | undefined {
  for (const item of ctx.index.items.values()) {
    if (
      item.kind === 'page' &&
      item.site === site &&
      item.id !== exceptId &&
      item.locales.get(locale)?.file.pathname === pathname
    )
      return item.id;
  }
  return undefined;
}

/** The item in this scope named `name` (in any locale, or in `locale`), other than `exceptId`. */
export const nameOwner = (
  ctx: StoreContext,
  home: ItemHome,
  name: string,
  options: { exceptId?: string; locale?: string } = {},
) => findNamed(ctx.index.items.values(), home, name, options)?.id;

export function assertPathnameFree(
  ctx: StoreContext,
  site: string,
  locale: string,
  pathname: string,
  exceptId?: string,
): void {
  const owner = pathnameOwner(ctx, site, locale, pathname, exceptId);
  if (owner)
    throw new QuireError(
      'PATHNAME_TAKEN',
      `The pathname ${pathname} is already used by "${owner}" in site "${site}" (${locale}).`,
      { pathname, locale, existingId: owner },
    );
}

export function assertNameFree(ctx: StoreContext, home: ItemHome, name: string, exceptId?: string): void {
  const owner = nameOwner(ctx, home, name, { exceptId });
  if (owner)
    throw new QuireError(
      'ALREADY_EXISTS',
      `A ${home.kind === 'data' ? 'data entry' : home.kind} named "${name}" already exists in collection "${home.collection}" ("${owner}").`,
      { name, existingId: owner },
    );
}
