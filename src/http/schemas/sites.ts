import * as v from 'valibot';
import { CollectionName, ContentId, LocaleCode, Pathname, SiteName } from '../../content/codes.js';
import { commaList } from '../validate.js';

const required = v.pipe(v.string(), v.nonEmpty('Required'));
// Codes in queries are checked like everywhere else (docs/interface.md, "Codes and names"): a filter that could never match
// is a mistake worth a 400, and no lookup ever sees a path-like or prototype-like value.
const SiteList = v.pipe(commaList, v.array(SiteName));
const booleanFlag = v.optional(
  v.pipe(
    v.picklist(['true', 'false']),
    v.transform((value) => value === 'true'),
  ),
  'false',
);

export const PagesQuerySchema = v.object({ locale: v.optional(LocaleCode) });

export const PathnameAvailableQuerySchema = v.object({
  pathname: Pathname,
  locale: v.optional(LocaleCode, 'en'),
  excludeId: v.optional(ContentId),
});

export const MoveBodySchema = v.object({
  id: required,
  pathname: Pathname,
  locale: LocaleCode,
  /** May come as an If-Match header instead (the route requires one of the two). */
  etag: v.optional(v.string()),
});

export const RedirectsQuerySchema = v.object({ site: v.optional(SiteName), locale: v.optional(LocaleCode) });

export const UntranslatedQuerySchema = v.object({
  excludeSites: v.optional(SiteList, ''),
  includeUnpublished: booleanFlag,
});

export const DataNameAvailableQuerySchema = v.object({
  name: CollectionName,
  collection: CollectionName,
  excludeId: v.optional(ContentId),
});
export const DataListQuerySchema = v.object({ collection: v.optional(CollectionName), locale: v.optional(LocaleCode) });
export const DataByNameQuerySchema = v.object({ collection: CollectionName, locale: v.optional(LocaleCode) });

export const FragmentListQuerySchema = v.object({
  collection: v.optional(CollectionName),
  locale: v.optional(LocaleCode),
  site: v.optional(SiteName),
});
export const FragmentNameAvailableQuerySchema = v.object({
  name: CollectionName,
  collection: v.optional(CollectionName, 'components'),
  locale: v.optional(LocaleCode, 'en'),
  excludeId: v.optional(ContentId),
  site: v.optional(SiteName),
});
export const FragmentByNameQuerySchema = v.object({
  collection: v.optional(CollectionName, 'components'),
  locale: v.optional(LocaleCode),
  site: v.optional(SiteName),
});
