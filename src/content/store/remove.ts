import { QuireError } from '../../errors.js';
import type { Author, StoreContext } from './context.js';
import { deleteLocale } from './locale-files.js';
import { checkEtag, scopeOf } from './rules.js';

/** Deletes one locale, or (without `locale`) the whole item; `etag` is that locale's, or the default locale's. */
export function remove(
  ctx: StoreContext,
  id: string,
  locale: string | undefined,
  etag: string,
  by: Author,
): Promise<void> {
  return ctx.onItem(id, async (item) => {
    const { defaultLocale } = scopeOf(ctx, item);
    const target = locale ?? (item.locales.has(defaultLocale) ? defaultLocale : [...item.locales.keys()][0]!);
    checkEtag(ctx, item, target, etag);
    if (locale === undefined) {
      const codes = [...item.locales.keys()];
      for (const [done, code] of codes.entries()) {
        try {
          await deleteLocale(ctx, item, code);
        } catch (error) {
          // Half deleted: the locales already gone are announced one by one.
          for (const gone of codes.slice(0, done)) ctx.announce(id, gone, 'deleted', by ?? null);
          throw error;
        }
      }
      ctx.feed.announce({ kind: 'content', id, locale: null, etag: null, by: by ?? null, action: 'deleted' });
      return;
    }
    if (locale === defaultLocale && item.locales.size > 1) {
      throw new QuireError(
        'INVALID_REQUEST',
        `The default locale ${defaultLocale} of "${id}" cannot be deleted while other locales exist; delete them first, or delete the whole item.`,
        { id, locale },
      );
    }
    await deleteLocale(ctx, item, locale);
    ctx.announce(id, locale, 'deleted', by ?? null);
  });
}
