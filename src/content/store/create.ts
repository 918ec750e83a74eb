import { QuireError } from '../../errors.js';
import { contentEtagOf } from '../etag.js';
import { idBase, uniqueId } from '../ids.js';
import { applyLocaleUpdate, type DateInput, mergeMeta } from '../locale-update.js';
import type { ContentData, ContentType, ItemHome, Kind, LocaleFile, Meta } from '../types.js';
import { currentEtag } from '../views.js';
import type { Author, StoreContext } from './context.js';
import { onDisk, writeLocale } from './locale-files.js';
import {
  assertNameFree,
  assertPathnameFree,
  checkMetaSize,
  nameOwner,
  requireConfiguredLocale,
  scopeOf,
} from './rules.js';

export interface CreateInput {
  kind: Kind;
  site?: string;
  collection: string;
  type: ContentType;
  name?: string;
  meta?: Meta;
  locales: Record<
    string,
    {
      pathname?: string;
      publishAt?: DateInput;
      unpublishAt?: DateInput;
      meta?: Meta;
      content?: ContentData;
      inherit?: boolean;
    }
  >;
}

/**
 * Creates an item with its locales: every locale checked and made first, then, holding the naming
 * lock, its pathnames or name checked free, its ID chosen and its files written.
 */
export async function create(
  ctx: StoreContext,
  input: CreateInput,
  by: Author,
): Promise<{ id: string; etag: string; created: string }> {
  await ctx.sync.fresh();
  const home: ItemHome = {
    kind: input.kind,
    collection: input.collection,
    ...(input.site !== undefined && { site: input.site }),
  };
  const { defaultLocale, locales } = scopeOf(ctx, home);
  const localeCodes = Object.keys(input.locales);
  if (!localeCodes.includes(defaultLocale)) {
    throw new QuireError('MISSING_REQUIRED_FIELD', `locales must include the default locale ${defaultLocale}.`, {
      fields: [{ field: `locales.${defaultLocale}`, message: 'The default locale is required' }],
    });
  }
  for (const locale of localeCodes) requireConfiguredLocale(home, locale, locales);
  const now = new Date().toISOString();
  // The default locale first: the others take their inheritance from it.
  const ordered = [defaultLocale, ...localeCodes.filter((locale) => locale !== defaultLocale)];
  const files = new Map<string, LocaleFile>();
  let sourceContentEtag: string | undefined;
  for (const locale of ordered) {
    const { meta, ...rest } = input.locales[locale]!;
    if (rest.content === undefined && !rest.inherit) {
      throw new QuireError(
        'MISSING_REQUIRED_FIELD',
        `Locale ${locale} needs content (or inherit: true to take the default locale's).`,
        { fields: [{ field: `locales.${locale}.content`, message: 'Required' }] },
      );
    }
    const file = applyLocaleUpdate(
      undefined,
      { ...rest, meta: mergeMeta(input.meta ?? {}, meta), ...(input.name !== undefined && { name: input.name }) },
      {
        kind: input.kind,
        type: input.type,
        locale,
        defaultLocale,
        sourceContentEtag,
        now,
        by,
      },
    );
    checkMetaSize(ctx, file.meta, locale);
    files.set(locale, file);
    if (locale === defaultLocale) sourceContentEtag = contentEtagOf(file.content);
  }
  return ctx.gate.shared(() =>
    ctx.namingLock.run('names', async () => {
      await ctx.sync.fresh();
      if (input.kind === 'page') {
        for (const [locale, file] of files) assertPathnameFree(ctx, input.site!, locale, file.pathname!);
      } else if (input.name !== undefined) {
        assertNameFree(ctx, home, input.name);
      }
      // A fragment or data entry created without a name is named by its ID, so it can be looked up by name.
      const unnamed = input.kind !== 'page' && input.name === undefined;
      const id = uniqueId(
        idBase(input.kind, { ...input, pathname: files.get(defaultLocale)!.pathname }),
        (candidate) =>
          ctx.index.get(candidate) !== undefined ||
          (unnamed && nameOwner(ctx, home, candidate) !== undefined) ||
          onDisk(ctx, home, candidate, input.type, [...files.keys()]),
      );
      if (unnamed) for (const file of files.values()) file.name = id;
      const item = { ...home, id, type: input.type };
      return ctx.withItemLock(id, async () => {
        let etag = '';
        for (const [locale, file] of files) {
          const stored = await writeLocale(ctx, item, locale, file, by);
          if (locale === defaultLocale) etag = currentEtag(ctx.index.get(id)!, stored);
        }
        return { id, etag, created: now };
      });
    }),
  );
}
