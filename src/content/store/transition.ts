import { QuireError } from '../../errors.js';
import type { LocaleFile } from '../types.js';
import { currentEtag, hasSourceChanged } from '../views.js';
import { contentForWrite } from './contents.js';
import type { Author, StoreContext } from './context.js';
import { writeLocale } from './locale-files.js';
import { checkEtag, scopeOf } from './rules.js';

/** The inheritance changes a translator makes (docs/interface.md, "Inheritance"). */
export type Transition = 'mark-reviewed' | 'break-inheritance' | 'revert-to-inherited';

/**
 * Marks an inherited (or fallen-behind customized) locale reviewed, breaks its inheritance (it
 * takes its source's content as its own), or reverts a customized locale to inheriting.
 */
export function transition(
  ctx: StoreContext,
  kind: Transition,
  id: string,
  locale: string,
  etag: string,
  by: Author,
): Promise<{ etag: string }> {
  return ctx.onItem(id, async (item) => {
    const { defaultLocale } = scopeOf(ctx, item);
    const stored = ctx.requireLocale(item, locale);
    checkEtag(ctx, item, locale, etag);
    const state = stored.file.inheritance?.state;
    const wanted = kind === 'revert-to-inherited' ? 'customized' : 'inherited';
    // A customized locale that fell behind its source is settled by marking it reviewed too.
    const settlesFallenBehind = kind === 'mark-reviewed' && hasSourceChanged(item, stored);
    if (locale === defaultLocale || (state !== wanted && !settlesFallenBehind)) {
      throw new QuireError(
        'INVALID_REQUEST',
        `${kind} applies to a ${wanted} locale; ${locale} of "${id}" is ${locale === defaultLocale ? 'the default locale' : (state ?? 'not inheriting')}.`,
        { id, locale, state: state ?? null },
      );
    }
    const source = item.locales.get(stored.file.inheritance!.from);
    const sourceEtag = source?.contentEtag;
    // The file is written anew: a customized locale marked reviewed keeps its own content, read from it.
    const keeps = kind === 'mark-reviewed' && state === 'customized';
    const own = keeps ? await contentForWrite(item, locale, stored) : undefined;
    const file: LocaleFile = { ...stored.file, ...(own && { content: own }), modified: new Date().toISOString() };
    if (by) file.modifiedBy = by;
    else delete file.modifiedBy;
    if (kind === 'mark-reviewed') {
      file.inheritance = { ...file.inheritance!, inheritedEtag: sourceEtag };
    } else if (kind === 'break-inheritance') {
      file.inheritance = { ...file.inheritance!, state: 'customized', inheritedEtag: sourceEtag };
      const from = stored.file.inheritance!.from;
      file.content = (source && (await contentForWrite(item, from, source))) ?? {};
    } else {
      file.inheritance = {
        state: 'inherited',
        from: defaultLocale,
        inheritedEtag: item.locales.get(defaultLocale)?.contentEtag,
      };
      delete file.content;
    }
    const written = await writeLocale(ctx, item, locale, file, by);
    return { etag: currentEtag(item, written) };
  });
}
