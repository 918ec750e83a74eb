import { QuireError } from '../errors.js';
import type { ContentData, ContentType, Inheritance, Kind, LocaleFile, Meta } from './types.js';

/** A date that is set, or unset by null, false or "". */
export type DateInput = string | null | false | undefined;

export interface LocaleUpdate {
  pathname?: string;
  name?: string;
  publishAt?: DateInput;
  unpublishAt?: DateInput;
  meta?: Meta;
  content?: ContentData;
  inherit?: boolean;
}

export interface UpdateContext {
  kind: Kind;
  type: ContentType;
  locale: string;
  defaultLocale: string;
  /** The default locale's content etag, when the default locale exists. */
  sourceContentEtag: string | undefined;
  now: string;
  by: string | undefined;
}

/** Meta keys merge one by one; a key set to null is removed. */
export function mergeMeta(base: Meta, patch: Meta | undefined): Meta {
  if (!patch) return base;
  const merged: Meta = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

const normalizeContent = (type: ContentType, content: ContentData): ContentData =>
  type === 'mdx' ? { ...content, mdx: content.mdx ?? '' } : content;

function applyDate(file: LocaleFile, key: 'publishAt' | 'unpublishAt', value: DateInput | undefined) {
  if (value === undefined) return;
  if (value === null || value === false || value === '') delete file[key];
  else file[key] = value;
}

function inheritFrom(context: UpdateContext, state: Inheritance['state']): Inheritance {
  if (context.sourceContentEtag === undefined) {
    throw new QuireError(
      'INVALID_REQUEST',
      `Locale ${context.locale} cannot ${state === 'inherited' ? 'inherit' : 'be added'} before the default locale ${context.defaultLocale} exists.`,
      { field: 'locale' },
    );
  }
  return { state, from: context.defaultLocale, inheritedEtag: context.sourceContentEtag };
}

/** The file a locale will have after an update (or a create, when `previous` is undefined). */
export function applyLocaleUpdate(
  previous: LocaleFile | undefined,
  update: LocaleUpdate,
  context: UpdateContext,
): LocaleFile {
  const isDefault = context.locale === context.defaultLocale;
  if (update.pathname !== undefined && context.kind !== 'page') {
    throw new QuireError('INVALID_REQUEST', 'Only pages have a pathname; fragments and data entries have a name.', {
      field: 'pathname',
    });
  }
  if (update.name !== undefined && context.kind === 'page') {
    throw new QuireError('INVALID_REQUEST', 'Pages have a pathname, not a name.', { field: 'name' });
  }
  if (update.inherit && isDefault) {
    throw new QuireError('INVALID_REQUEST', `The default locale ${context.defaultLocale} cannot inherit.`, {
      field: 'inherit',
    });
  }
  if (update.inherit && update.content !== undefined) {
    throw new QuireError('INVALID_REQUEST', 'Send either content or inherit: true, not both.', {
      fields: ['content', 'inherit'],
    });
  }

  const file: LocaleFile = previous
    ? { ...previous, meta: mergeMeta(previous.meta, update.meta) }
    : {
        created: context.now,
        ...(context.by && { createdBy: context.by }),
        modified: context.now,
        meta: mergeMeta({}, update.meta),
      };

  if (!previous) {
    if (context.kind === 'page' && update.pathname === undefined) {
      throw new QuireError('MISSING_REQUIRED_FIELD', `A new page locale needs a pathname (locale ${context.locale}).`, {
        fields: [{ field: 'pathname', message: 'Required for pages' }],
      });
    }
    if (isDefault && update.content === undefined) {
      throw new QuireError('MISSING_REQUIRED_FIELD', `The default locale ${context.locale} needs content.`, {
        fields: [{ field: 'content', message: 'Required for the default locale' }],
      });
    }
    if (!isDefault) file.inheritance = inheritFrom(context, update.content === undefined ? 'inherited' : 'customized');
  } else if (update.inherit && file.inheritance?.state !== 'inherited') {
    file.inheritance = inheritFrom(context, 'inherited');
  } else if (update.content !== undefined && file.inheritance?.state === 'inherited') {
    // Writing a translation's content makes it the translation's own.
    file.inheritance = { ...file.inheritance, state: 'customized' };
  }

  if (update.pathname !== undefined && update.pathname !== file.pathname) {
    if (previous?.pathname !== undefined) file.previousPathnames = movedAwayFrom(previous, update.pathname);
    file.pathname = update.pathname;
  }
  if (update.name !== undefined) file.name = update.name;
  applyDate(file, 'publishAt', update.publishAt);
  applyDate(file, 'unpublishAt', update.unpublishAt);
  if (file.inheritance?.state === 'inherited') delete file.content;
  else if (update.content !== undefined) file.content = normalizeContent(context.type, update.content);

  file.modified = context.now;
  if (context.by) file.modifiedBy = context.by;
  else delete file.modifiedBy;
  return file;
}

/** The old pathname joins the history (for redirects); a pathname moved back to leaves it. */
function movedAwayFrom(previous: LocaleFile, next: string): string[] | undefined {
  const history = (previous.previousPathnames ?? []).filter(
    (pathname) => pathname !== next && pathname !== previous.pathname,
  );
  history.push(previous.pathname!);
  return history;
}
