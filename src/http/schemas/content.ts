import * as v from 'valibot';
import { CollectionName, ContentId, LocaleCode, Pathname, SiteName } from '../../content/codes.js';
import { KINDS, TYPES } from '../../content/types.js';
import { commaList } from '../validate.js';
import { objectOnly } from './object-only.js';

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;

/** A date-time that names a real instant: `Date.parse` rolls 2026-02-30 over into March, so each part is checked. */
function isIsoDateTime(value: string): boolean {
  const match = ISO_DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = match
    .slice(1)
    .map((part) => part ?? '0') as string[];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day) &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHours) <= 23 &&
    Number(offsetMinutes) <= 59 &&
    !Number.isNaN(Date.parse(value))
  );
}

/** An ISO 8601 date-time, or null / false / "" to unset it. */
const DateField = v.optional(
  v.union(
    [
      v.pipe(
        v.string(),
        v.check(
          (value) => value === '' || isIsoDateTime(value),
          'Expected an ISO 8601 date-time such as 2026-01-31T09:00:00Z, or null to unset it',
        ),
      ),
      v.null(),
      v.literal(false),
    ],
    'Expected an ISO 8601 date-time, or null / false / "" to unset it',
  ),
);

const MetaValueString = v.optional(v.nullable(v.string()));
const MetaValueList = v.optional(v.nullable(v.array(v.string())));

/** Partial ContentMeta: an object whose known fields are typed, any other key is allowed; null removes a key. */
const MetaSchema = objectOnly(
  v.looseObject({
    title: MetaValueString,
    description: MetaValueString,
    author: MetaValueString,
    tags: MetaValueList,
    keywords: MetaValueList,
    ogTitle: MetaValueString,
    ogDescription: MetaValueString,
    ogImage: MetaValueString,
  }),
);

/** What is stored as a locale's content. */
const ContentDataSchema = objectOnly(
  v.strictObject({
    visualData: v.optional(v.unknown()),
    mdx: v.optional(v.string()),
    data: v.optional(objectOnly(v.record(v.string(), v.unknown()))),
  }),
);

/** Names that would be read as a fixed route under /fragments, /blocks or /data. */
const RESERVED_NAMES = ['collections', 'pages', 'pathname-available', 'name-available', 'move'];
const NameField = v.optional(
  v.pipe(
    CollectionName,
    v.check(
      (name) => !RESERVED_NAMES.includes(name),
      `This name is reserved for a route; avoid ${RESERVED_NAMES.join(', ')}`,
    ),
  ),
);

export const LocaleUpdateSchema = v.object({
  pathname: v.optional(Pathname),
  name: NameField,
  publishAt: DateField,
  unpublishAt: DateField,
  meta: v.optional(MetaSchema),
  content: v.optional(ContentDataSchema),
  inherit: v.optional(v.boolean()),
});

const LocaleCreateSchema = v.object({
  pathname: v.optional(Pathname),
  publishAt: DateField,
  unpublishAt: DateField,
  meta: v.optional(MetaSchema),
  content: v.optional(ContentDataSchema),
  inherit: v.optional(v.boolean()),
});

export const CreateContentSchema = v.pipe(
  v.object({
    kind: v.picklist(KINDS),
    site: v.optional(SiteName),
    collection: CollectionName,
    type: v.picklist(TYPES),
    name: NameField,
    meta: v.optional(MetaSchema),
    locales: v.pipe(
      v.record(LocaleCode, LocaleCreateSchema),
      v.check((locales) => Object.keys(locales).length > 0, 'Expected at least one locale'),
    ),
  }),
  v.forward(
    v.check((input) => input.kind !== 'page' || input.site !== undefined, 'Pages belong to a site'),
    ['site'],
  ),
  v.forward(
    v.check(
      (input) => !(input.kind === 'data' && input.site !== undefined),
      'Data entries are global and take no site',
    ),
    ['site'],
  ),
  v.forward(
    v.check((input) => input.kind !== 'page' || input.name === undefined, 'Pages have pathnames, not names'),
    ['name'],
  ),
  v.forward(
    v.check((input) => input.kind !== 'data' || input.type === 'json', 'Data entries have type json'),
    ['type'],
  ),
  v.forward(
    v.check((input) => input.kind !== 'fragment' || input.type !== 'json', 'Fragments have type visual or mdx'),
    ['type'],
  ),
);

/** `a,b` in a query: each a locale code. */
export const LocaleList = v.pipe(commaList, v.array(LocaleCode));

export const ListQuerySchema = v.object({
  kind: v.optional(v.picklist(KINDS)),
  site: v.optional(SiteName),
  collection: v.optional(CollectionName),
  type: v.optional(v.picklist(TYPES)),
  locales: v.optional(LocaleList),
  published: v.optional(
    v.pipe(
      v.picklist(['true', 'false']),
      v.transform((value) => value === 'true'),
    ),
  ),
  localization: v.optional(v.picklist(['complete', 'partial', 'one'])),
  missingLocales: v.optional(LocaleList),
});

export const NeedsReviewQuerySchema = v.object({
  locale: LocaleCode,
  kind: v.optional(v.picklist(KINDS)),
  /** `true`: customized locales whose source changed after the customization count too. */
  customized: v.optional(
    v.pipe(
      v.picklist(['true', 'false']),
      v.transform((value) => value === 'true'),
    ),
    'false',
  ),
});

export const WriteQuerySchema = v.object({ locale: LocaleCode, etag: v.optional(v.string(), '') });
/** `etag` may come as an If-Match header instead (the route requires one of the two). */
export const TransitionQuerySchema = v.object({ locale: LocaleCode, etag: v.optional(v.string()) });
export const DeleteQuerySchema = v.object({ locale: v.optional(LocaleCode) });

export const BatchOperationSchema = v.object({
  id: ContentId,
  locale: LocaleCode,
  data: LocaleUpdateSchema,
  etag: v.optional(v.string(), ''),
});

/**
 * One operation of a batch as the body is read: anything, because each operation is checked
 * against BatchOperationSchema on its own, so that one bad operation fails alone. The OpenAPI
 * document shows BatchOperationSchema in its place.
 */
export const BatchOperationSlot = v.unknown();

export const BatchSchema = v.object({
  operations: v.pipe(v.array(BatchOperationSlot), v.maxLength(1000, 'At most 1000 operations per batch')),
});
