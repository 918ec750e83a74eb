import { QuireError } from '../../errors.js';
import { requireSite } from '../../sites/sites-config.js';
import { contentEtagOf } from '../etag.js';
import { applyLocaleUpdate, type LocaleUpdate } from '../locale-update.js';
import type { Item } from '../types.js';
import { currentEtag } from '../views.js';
import { contentForWrite } from './contents.js';
import type { Author, StoreContext } from './context.js';
import { writeLocale } from './locale-files.js';
import {
  assertNameFree,
  assertPathnameFree,
  checkEtag,
  checkMetaSize,
  requireConfiguredLocale,
  scopeOf,
} from './rules.js';

/**
 * Changes one locale (or adds a translation, with an empty etag) under the item's lock: the etag
 * checked, the update applied, the file written atomically.
 */
export function updateLocale(
  ctx: StoreContext,
  id: string,
  locale: string,
  update: LocaleUpdate,
  etag: string,
  by: Author,
): Promise<{ etag: string; modified: string; previousPathname: string | undefined }> {
  return ctx.onItem(id, async (item) => {
    const { defaultLocale, locales } = scopeOf(ctx, item);
    const previous = item.locales.get(locale);
    if (previous && etag !== '') checkEtag(ctx, item, locale, etag);
    // An etag names a version of this locale: if the locale is gone (deleted meanwhile), the write
    // must not bring it back with only what this request carries.
    if (!previous && etag !== '') {
      throw new QuireError(
        'STALE_WRITE',
        `Content "${id}" has no locale ${locale} any more (it was deleted since it was read): reload it; a new translation is added without an etag.`,
        { id, locale, currentEtag: null },
      );
    }
    if (!previous) {
      requireConfiguredLocale(item, locale, locales);
      // A new translation of a fragment or data entry keeps the item's name unless it is given one.
      const name = item.locales.get(defaultLocale)?.file.name;
      if (item.kind !== 'page' && update.name === undefined && name !== undefined) update = { ...update, name };
    }
    // The file is written anew: a locale that keeps its content (none sent, not turning to inherit) has it read.
    const keepsContent =
      previous !== undefined && previous.contentEtag !== '' && update.content === undefined && !update.inherit;
    const previousContent = keepsContent ? await contentForWrite(item, locale, previous) : undefined;
    const file = applyLocaleUpdate(previous && { ...previous.file, content: previousContent }, update, {
      kind: item.kind,
      type: item.type,
      locale,
      defaultLocale,
      sourceContentEtag: item.locales.get(defaultLocale)?.contentEtag,
      now: new Date().toISOString(),
      by,
    });
    checkMetaSize(ctx, file.meta, locale);
    // A default locale's content about to be replaced is kept when a translation was reviewed against it. One
    // that none was is never needed: a review, a break or a new translation records the source's content then.
    if (
      locale === defaultLocale &&
      previous &&
      previous.contentEtag !== '' &&
      reviewedAgainst(item, locale, previous.contentEtag) &&
      contentEtagOf(file.content) !== previous.contentEtag
    ) {
      const replaced = await contentForWrite(item, locale, previous);
      if (replaced) await ctx.sourceCache.put(previous.contentEtag, { meta: previous.file.meta, content: replaced });
    }
    const renames = file.pathname !== previous?.file.pathname || file.name !== previous?.file.name;
    const write = async () => {
      if (item.kind === 'page' && file.pathname !== previous?.file.pathname)
        assertPathnameFree(ctx, item.site!, locale, file.pathname!, item.id);
      if (file.name !== undefined && file.name !== previous?.file.name) assertNameFree(ctx, item, file.name, item.id);
      return writeLocale(ctx, item, locale, file, by);
    };
    const stored = renames ? await ctx.namingLock.run('names', write) : await write();
    return { etag: currentEtag(item, stored), modified: file.modified, previousPathname: previous?.file.pathname };
  });
}

/** Whether a translation of the item records `contentEtag` of `locale` as the version it was last reviewed against. */
function reviewedAgainst(item: Item, locale: string, contentEtag: string): boolean {
  for (const other of item.locales.values()) {
    const { inheritance } = other.file;
    if (inheritance?.from === locale && inheritance.inheritedEtag === contentEtag) return true;
  }
  return false;
}

/** Moves a page locale to a new pathname; the old one is kept for redirects. */
export async function movePage(
  ctx: StoreContext,
  site: string,
  id: string,
  locale: string,
  pathname: string,
  etag: string,
  by: Author,
): Promise<{ previousPathname: string; etag: string }> {
  await ctx.sync.fresh();
  requireSite(ctx.sites.get(), site);
  const item = ctx.index.get(id);
  if (item?.kind !== 'page' || item.site !== site) {
    throw new QuireError('CONTENT_NOT_FOUND', `No page with ID "${id}" in site "${site}".`, { id, site });
  }
  ctx.requireLocale(item, locale);
  const moved = await updateLocale(ctx, id, locale, { pathname }, etag, by);
  return { previousPathname: moved.previousPathname!, etag: moved.etag };
}
