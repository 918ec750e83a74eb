import * as v from 'valibot';
import { CollectionName, LocaleCode, Pathname } from '../../content/codes.js';
import { commaList } from '../validate.js';

const required = v.pipe(v.string(), v.nonEmpty('Required'));
const booleanFlag = v.optional(v.pipe(v.picklist(['true', 'false']), v.transform((value) => value === 'true')), 'false');

export const PagesQuerySchema = v.object({ locale: v.optional(LocaleCode) });

export const PathnameAvailableQuerySchema = v.object({
  pathname: Pathname,
  locale: v.optional(LocaleCode, 'en'),
  excludeId: v.optional(v.string()),
});

export const MoveBodySchema = v.object({
  id: required,
  pathname: Pathname,
  locale: LocaleCode,
  etag: required,
});

export const RedirectsQuerySchema = v.object({ site: v.optional(v.string()), locale: v.optional(v.string()) });

export const UntranslatedQuerySchema = v.object({
  excludeSites: v.optional(commaList, ''),
  includeUnpublished: booleanFlag,
});

export const DataNameAvailableQuerySchema = v.object({ name: CollectionName, collection: CollectionName, excludeId: v.optional(v.string()) });
export const DataListQuerySchema = v.object({ collection: v.optional(v.string()), locale: v.optional(v.string()) });
export const DataByNameQuerySchema = v.object({ collection: v.string(), locale: v.optional(v.string()) });

export const FragmentListQuerySchema = v.object({ collection: v.optional(v.string()), locale: v.optional(v.string()), site: v.optional(v.string()) });
export const FragmentNameAvailableQuerySchema = v.object({
  name: CollectionName,
  collection: v.optional(CollectionName, 'components'),
  locale: v.optional(LocaleCode, 'en'),
  excludeId: v.optional(v.string()),
  site: v.optional(v.string()),
});
export const FragmentByNameQuerySchema = v.object({
  collection: v.optional(v.string(), 'components'),
  locale: v.optional(v.string()),
  site: v.optional(v.string()),
});
