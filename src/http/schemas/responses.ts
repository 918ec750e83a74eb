import * as v from 'valibot';
import { AssetRecordSchema } from '../../assets/record-schema.js';
import { StoredInheritanceSchema } from '../../content/inheritance-schema.js';
import { KINDS, TYPES } from '../../content/types.js';
import { ERROR_STATUS, type ErrorCode } from '../../errors.js';
import { SitesSchema } from '../../sites/sites-schema.js';

/**
 * The shapes the API answers with. They document the API (the OpenAPI document is generated from
 * them) and type the client (`v.InferOutput`); the tests check real answers against them. Objects
 * are strict so that a field the server adds without adding it here fails those tests.
 */

const DateTime = v.pipe(v.string(), v.isoTimestamp());
const Etag = v.pipe(v.string(), v.description('`<metaEtag>.<contentEtag>`'));

/** ContentMeta: the known fields, and any other key. */
export const ContentMetaSchema = v.looseObject({
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  author: v.optional(v.string()),
  tags: v.optional(v.array(v.string())),
  keywords: v.optional(v.array(v.string())),
  ogTitle: v.optional(v.string()),
  ogDescription: v.optional(v.string()),
  ogImage: v.optional(v.string()),
});

export const ContentDataSchema = v.strictObject({
  visualData: v.optional(v.unknown()),
  mdx: v.optional(v.string()),
  data: v.optional(v.record(v.string(), v.unknown())),
});

export const InheritanceSchema = v.strictObject({
  ...StoredInheritanceSchema.entries,
  stale: v.boolean(),
  /** On a customized locale: the default content changed after the customization. */
  sourceChanged: v.optional(v.literal(true)),
});

const localeRecordEntries = {
  locale: v.string(),
  etag: Etag,
  created: DateTime,
  modified: DateTime,
  createdBy: v.optional(v.string()),
  modifiedBy: v.optional(v.string()),
  pathname: v.optional(v.string()),
  name: v.optional(v.string()),
  publishAt: v.optional(v.string()),
  unpublishAt: v.optional(v.string()),
  inheritance: v.optional(InheritanceSchema),
  previousPathnames: v.optional(v.array(v.string())),
  meta: ContentMetaSchema,
};

/** A locale record in lists and by-name lookups: no content body. */
export const LocaleManifestSchema = v.strictObject(localeRecordEntries);
/** A locale record with its (resolved) content: an inherited locale shows its source's content. */
export const LocaleRecordSchema = v.strictObject({ ...localeRecordEntries, content: ContentDataSchema });

const itemEntries = {
  id: v.string(),
  type: v.picklist(TYPES),
  kind: v.picklist(KINDS),
  site: v.optional(v.string()),
  collection: v.string(),
};

export const ContentEntrySchema = v.strictObject({ ...itemEntries, locales: v.record(v.string(), LocaleRecordSchema) });
export const ContentManifestSchema = v.strictObject({
  ...itemEntries,
  locales: v.record(v.string(), LocaleManifestSchema),
});
export const LocalizedEntrySchema = v.strictObject({ ...itemEntries, localized: LocaleRecordSchema });
/** A fragment as `/fragments` (kind `fragment`) or `/blocks` (kind `block`) reports it; `scope` when listed with `site`. */
export const FragmentManifestSchema = v.strictObject({
  ...itemEntries,
  kind: v.picklist(['fragment', 'block']),
  scope: v.optional(v.picklist(['global', 'site'])),
  locales: v.record(v.string(), LocaleManifestSchema),
});

const listOf = <const S extends v.GenericSchema>(item: S) =>
  v.strictObject({ items: v.array(item), total: v.number() });
export const ManifestListSchema = listOf(ContentManifestSchema);
export const FragmentListSchema = listOf(FragmentManifestSchema);

export const CollectionsSchema = v.strictObject({ collections: v.array(v.string()) });
export const AvailabilitySchema = v.variant('available', [
  v.strictObject({ available: v.literal(true) }),
  v.strictObject({ available: v.literal(false), existingId: v.string() }),
]);

export const CreatedSchema = v.strictObject({
  success: v.literal(true),
  id: v.string(),
  etag: Etag,
  created: DateTime,
});
export const WrittenSchema = v.strictObject({ success: v.literal(true), etag: Etag, modified: DateTime });
export const TransitionedSchema = v.strictObject({ success: v.literal(true), etag: Etag });
export const SuccessSchema = v.strictObject({ success: v.literal(true) });
export const BatchResultSchema = v.strictObject({
  operations: v.array(
    v.strictObject({
      id: v.string(),
      locale: v.string(),
      updated: v.boolean(),
      etag: v.optional(Etag),
      error: v.optional(v.strictObject({ code: v.picklist(errorCodes()), message: v.string() })),
    }),
  ),
  success: v.boolean(),
  failed: v.number(),
  updated: v.number(),
});

export { SitesSchema };
export const MovedSchema = v.strictObject({ moved: v.literal(true), previousPathname: v.string(), etag: Etag });
export const RedirectListSchema = listOf(
  v.strictObject({ site: v.string(), locale: v.string(), from: v.string(), to: v.string(), id: v.string() }),
);

export const AssetEntrySchema = v.strictObject({
  ...AssetRecordSchema.entries,
  uploadedAt: DateTime,
  filename: v.string(),
  folder: v.pipe(v.string(), v.description('`/` for the root, else e.g. `/photos/2024`')),
  path: v.pipe(
    v.string(),
    v.description(
      'The path under the assets folder, e.g. `photos/2024/cat.png`: what `/assets/meta/{path}` and `/assets/serve/{path}` take',
    ),
  ),
  url: v.pipe(v.string(), v.description('The URL content should use: `<prefix>/assets/serve/<path>`')),
});

export interface FolderTreeNode {
  name: string;
  path: string;
  assetCount: number;
  children: FolderTreeNode[];
}
export const FolderTreeNodeSchema: v.GenericSchema<FolderTreeNode> = v.strictObject({
  name: v.string(),
  path: v.string(),
  assetCount: v.number(),
  children: v.array(v.lazy(() => FolderTreeNodeSchema)),
});

export const AssetListSchema = v.strictObject({ assets: v.array(AssetEntrySchema) });
export const FolderListingSchema = v.strictObject({
  assets: v.array(AssetEntrySchema),
  folders: v.array(v.strictObject({ name: v.string(), path: v.string() })),
});
export const FolderCreatedSchema = v.strictObject({ success: v.literal(true), path: v.string() });
export const FolderTreeSchema = v.strictObject({ tree: v.array(FolderTreeNodeSchema) });
export const AssetUsageSchema = v.strictObject({
  usage: v.array(v.strictObject({ page: v.string(), locale: v.string(), field: v.string() })),
});
export const AssetsMovedSchema = v.strictObject({
  success: v.literal(true),
  moved: v.number(),
  skipped: v.array(v.strictObject({ filename: v.string(), reason: v.string() })),
});

const IdClashesSchema = v.pipe(
  v.array(
    v.strictObject({
      id: v.string(),
      served: v.pipe(
        v.array(v.string()),
        v.description('The files of the item that is served, relative to the content root'),
      ),
      ignored: v.pipe(v.array(v.string()), v.description('The files that claim the same ID and are not served')),
    }),
  ),
  v.description(
    'IDs that files of different items claim (content made before IDs had a random part, or copied by hand). ' +
      'The claimant whose folder sorts first is served, the same on every server at the same commit; rename the ignored files to a new ID to keep both.',
  ),
);
export const ProblemSchema = v.pipe(
  v.strictObject({
    path: v.pipe(v.string(), v.description('The file, relative to the content root')),
    reason: v.pipe(v.string(), v.description('What kind of problem, e.g. off-site-pathname')),
    message: v.string(),
  }),
  v.description('Something wrong in a stored file that the API works around and an editor should fix'),
);
const ProblemsField = v.pipe(
  v.array(ProblemSchema),
  v.description('What is wrong with the stored files now; empty when nothing is'),
);

const ChangedFileSchema = v.strictObject({
  path: v.pipe(v.string(), v.description('Relative to the repository')),
  change: v.picklist(['added', 'modified', 'deleted']),
  item: v.optional(
    v.pipe(
      v.strictObject({
        id: v.string(),
        kind: v.picklist(KINDS),
        site: v.optional(v.string()),
        collection: v.string(),
        locale: v.string(),
        title: v.optional(v.pipe(v.string(), v.description("The locale's meta.title; absent for a deleted file"))),
      }),
      v.description('The item and locale the file holds, for a content file'),
    ),
  ),
  asset: v.optional(
    v.pipe(v.string(), v.description('The path under the assets folder, for a file in it (a manifest included)')),
  ),
});

export const GitStatusSchema = v.strictObject({
  isRepo: v.boolean(),
  hasChanges: v.boolean(),
  changedFiles: v.number(),
  ahead: v.number(),
  behind: v.number(),
  branch: v.string(),
  remoteConfigured: v.boolean(),
  files: v.pipe(
    v.array(ChangedFileSchema),
    v.description('The changed files under the content root and assets folder'),
  ),
  idClashes: IdClashesSchema,
  problems: ProblemsField,
});
export const CommitResultSchema = v.strictObject({
  success: v.literal(true),
  commit: v.pipe(
    v.nullable(v.string()),
    v.description("The new commit's full SHA, or null when there was nothing to commit"),
  ),
  summary: v.string(),
});
export const GitSyncResultSchema = v.strictObject({ success: v.literal(true), summary: v.string() });
export const GitPullResultSchema = v.strictObject({
  ...GitSyncResultSchema.entries,
  idClashes: IdClashesSchema,
  problems: ProblemsField,
});

export const AuthUserSchema = v.variant('authenticated', [
  v.strictObject({ authenticated: v.literal(true), user: v.strictObject({ email: v.string(), sub: v.string() }) }),
  v.strictObject({ authenticated: v.literal(false) }),
]);

const WordPartSchema = v.strictObject({ text: v.string(), change: v.optional(v.picklist(['added', 'removed'])) });

const FieldChangeSchema = v.strictObject({
  path: v.pipe(v.string(), v.description('A meta key, or a content field path such as `visualData.blocks[0].text`.')),
  change: v.picklist(['added', 'removed', 'changed']),
  before: v.optional(v.unknown()),
  after: v.optional(v.unknown()),
  words: v.optional(v.array(WordPartSchema)),
});

const LineChangeSchema = v.strictObject({
  change: v.picklist(['same', 'added', 'removed', 'changed']),
  before: v.optional(v.string()),
  after: v.optional(v.string()),
  words: v.optional(v.array(WordPartSchema)),
});

const SourceVersionSchema = { meta: ContentMetaSchema, content: ContentDataSchema };

/** The review of a translation: the source as it was reviewed (or customized) against it, and as it is. */
export const ReviewSchema = v.strictObject({
  id: v.string(),
  kind: v.picklist(KINDS),
  type: v.picklist(TYPES),
  site: v.optional(v.string()),
  collection: v.string(),
  locale: v.string(),
  from: v.pipe(v.string(), v.description('The default locale the translation follows.')),
  state: v.picklist(['inherited', 'customized']),
  stale: v.boolean(),
  sourceChanged: v.boolean(),
  reviewedEtag: v.nullable(v.string()),
  reviewed: v.nullable(
    v.strictObject({
      etag: v.string(),
      ...SourceVersionSchema,
      foundIn: v.variant('source', [
        v.strictObject({ source: v.literal('current') }),
        v.strictObject({ source: v.literal('cache') }),
        v.strictObject({ source: v.literal('git'), commit: v.string(), date: DateTime, path: v.string() }),
      ]),
    }),
  ),
  reason: v.nullable(
    v.strictObject({
      code: v.picklist(['not-recorded', 'not-found', 'no-repository', 'history-unreadable']),
      message: v.string(),
    }),
  ),
  current: v.strictObject({ etag: v.string(), ...SourceVersionSchema }),
  translation: v.strictObject({ etag: Etag, ...SourceVersionSchema, contentEtag: v.string() }),
  diff: v.nullable(
    v.strictObject({
      meta: v.array(FieldChangeSchema),
      content: v.array(FieldChangeSchema),
      lines: v.optional(v.array(LineChangeSchema)),
    }),
  ),
});

function errorCodes(): [ErrorCode, ...ErrorCode[]] {
  return Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
}

/** The error envelope, narrowed to the codes an endpoint answers with (default: all). */
export function errorEnvelope(codes: readonly ErrorCode[] = errorCodes()) {
  return v.strictObject({
    error: v.strictObject({
      code: v.picklist(codes),
      message: v.string(),
      details: v.optional(v.unknown()),
    }),
  });
}

export const ErrorEnvelopeSchema = errorEnvelope();

/** Named schemas: `#/components/schemas/<name>` in the OpenAPI document. */
export const RESPONSE_COMPONENTS = {
  ContentMeta: ContentMetaSchema,
  ContentData: ContentDataSchema,
  Inheritance: InheritanceSchema,
  LocaleManifest: LocaleManifestSchema,
  LocaleRecord: LocaleRecordSchema,
  ContentEntry: ContentEntrySchema,
  ContentManifest: ContentManifestSchema,
  LocalizedEntry: LocalizedEntrySchema,
  FragmentManifest: FragmentManifestSchema,
  SitesConfig: SitesSchema,
  AssetEntry: AssetEntrySchema,
  FolderTreeNode: FolderTreeNodeSchema,
  GitStatus: GitStatusSchema,
  Review: ReviewSchema,
  Problem: ProblemSchema,
  ErrorEnvelope: ErrorEnvelopeSchema,
};
