import * as v from 'valibot';
import type { ErrorCode } from '../errors.js';
import {
  CreateFolderSchema, FolderQuerySchema, ImportUrlSchema, MetaPatchSchema, MoveSchema, UploadFieldsSchema,
} from './schemas/assets.js';
import {
  BatchOperationSchema, CreateContentSchema, DeleteQuerySchema, ListQuerySchema, LocaleUpdateSchema,
  NeedsReviewQuerySchema, TransitionQuerySchema, WriteQuerySchema,
} from './schemas/content.js';
import { CommitBodySchema, EmptyBodySchema } from './schemas/git.js';
import {
  AssetEntrySchema, AssetListSchema, AssetsMovedSchema, AssetUsageSchema, AuthUserSchema, AvailabilitySchema,
  BatchResultSchema, CollectionsSchema, CommitResultSchema, ContentEntrySchema, ContentManifestSchema, CreatedSchema,
  FolderCreatedSchema, FolderListingSchema, FolderTreeSchema, FragmentListSchema, FragmentManifestSchema,
  GitPullResultSchema, GitStatusSchema, GitSyncResultSchema, LocalizedEntrySchema, ManifestListSchema, MovedSchema, RedirectListSchema,
  SitesSchema, SuccessSchema, TransitionedSchema, WrittenSchema,
} from './schemas/responses.js';
import {
  DataByNameQuerySchema, DataListQuerySchema, DataNameAvailableQuerySchema, FragmentByNameQuerySchema,
  FragmentListQuerySchema, FragmentNameAvailableQuerySchema, MoveBodySchema, PagesQuerySchema,
  PathnameAvailableQuerySchema, RedirectsQuerySchema, UntranslatedQuerySchema,
} from './schemas/sites.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One endpoint of the API, as the OpenAPI document describes it. */
export interface Endpoint {
  method: HttpMethod;
  /** Relative to the prefix, in Hono's syntax, exactly as the route is registered (`/content/:id`, `/assets/meta/:path{.+}`). */
  path: string;
  /** `area.name`: the typed client's method (`client.content.getLocale`); the OpenAPI operationId is its camel-case form. */
  operation: string;
  summary: string;
  description?: string;
  /** Answered without a verified identity even when `requireIdentity` is on. */
  public?: boolean;
  /** The request's query, validated with this schema by the route. */
  query?: v.GenericSchema;
  /** The request body, validated with this schema by the route; `optional`: the body may be omitted. */
  body?: { schema: v.GenericSchema; optional?: boolean; multipart?: true };
  /**
   * The operation takes the `If-Match` request header: `required`, or `alternative` to its own
   * `etag` field (when both are given both must match).
   */
  ifMatch?: 'required' | 'alternative';
  /** The success answer; absent for the scope-misuse routes that always answer 400. */
  response?: {
    status: number;
    description: string;
    /** JSON body; absent with `file`. */
    schema?: v.GenericSchema;
    /** The body is the stored file itself. */
    file?: true;
    /** The body is a stream of Server-Sent Events, described in `description`. */
    eventStream?: true;
    /** The answer carries `ETag: "<metaEtag>.<contentEtag>"`. */
    etag?: true;
    /** Another success status with the same body (a batch with failures: 207). */
    alsoStatus?: { status: number; description: string };
  };
  /**
   * The error codes particular to this endpoint. The generator adds those every endpoint can give:
   * INTERNAL_ERROR, UNAUTHORIZED (unless public), INVALID_REQUEST (with a query or body) and
   * PAYLOAD_TOO_LARGE (with a JSON body).
   */
  errors: ErrorCode[];
}

const PATH_PARAMS: Record<string, string> = {
  id: 'Content ID.',
  locale: 'Locale code, e.g. `en` or `pt-BR`.',
  name: 'Name of the fragment, block or data entry within its collection.',
  site: 'Site name from `sites.json`.',
  targetLocale: 'The locale that is missing.',
  path: 'Path of the asset under the assets folder; may contain `/` (e.g. `photos/2024/cat.png`).',
};

export const pathParamDescription = (name: string): string | undefined => PATH_PARAMS[name];

/** The batch body as the route reads it: each operation is validated on its own, so that one bad operation fails alone. */
const BatchBodySchema = v.object({
  operations: v.pipe(v.array(BatchOperationSchema), v.maxLength(1000, 'At most 1000 operations per batch')),
});

const json = (status: number, schema: v.GenericSchema, description: string, extra: { etag?: true } = {}) => ({ status, schema, description, ...extra });
const ok = (schema: v.GenericSchema, description: string, extra: { etag?: true } = {}) => json(200, schema, description, extra);

const WRITE_ERRORS: ErrorCode[] = ['MISSING_REQUIRED_FIELD', 'CONTENT_NOT_FOUND', 'STALE_WRITE', 'WRITE_ERROR'];

const transition = (operation: string, path: string, summary: string): Endpoint => ({
  method: 'POST', path, operation, summary,
  description: 'Takes `locale` and the locale\'s current etag, in the `etag` query parameter or the `If-Match` header (one of the two is required). The wrong inheritance state (or the default locale) is 400 INVALID_REQUEST.',
  query: TransitionQuerySchema, ifMatch: 'alternative',
  response: ok(TransitionedSchema, 'The locale\'s new etag.', { etag: true }),
  errors: WRITE_ERRORS,
});

const localeWrite = (method: 'PUT' | 'PATCH', operation: string): Endpoint => ({
  method, path: '/content/:id', operation,
  summary: method === 'PUT' ? 'Update (or add) one locale' : 'Update (or add) one locale (same as PUT)',
  description: 'Only the supplied fields change: `meta` is merged key by key (null removes a key), `content` is replaced. '
    + 'A locale that does not exist yet is created (inherited when it has no `content`). The current etag goes in `etag` or `If-Match`; with neither the write is not checked for conflicts.',
  query: WriteQuerySchema, ifMatch: 'alternative',
  body: { schema: LocaleUpdateSchema, optional: true },
  response: ok(WrittenSchema, 'Written; the locale\'s new etag.', { etag: true }),
  errors: [...WRITE_ERRORS, 'METADATA_TOO_LARGE', 'PATHNAME_TAKEN', 'ALREADY_EXISTS', 'SITE_NOT_FOUND'],
});

/** `/fragments/*` and `/blocks/*`: the same items under two words (and the Sites routes for that scope). */
function fragmentEndpoints(word: 'fragment' | 'block'): Endpoint[] {
  const area = `${word}s`;
  const scopeMisuse = (method: HttpMethod, path: string, what: string): Endpoint => ({
    method, path: `/${area}/${path}`, operation: `${area}.${path.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}`,
    summary: `${what}: not available for the ${area} scope`,
    description: `The \`/{site}/${path}\` route with the site \`${area}\`: ${area} have no pages, pathnames or moves, so this always answers 400 INVALID_REQUEST.`,
    errors: ['INVALID_REQUEST'],
  });
  return [
    { method: 'GET', path: `/${area}/collections`, operation: `${area}.collections`, summary: `Collections of ${word}s`, response: ok(CollectionsSchema, 'Collection names, sorted.'), errors: [] },
    scopeMisuse('GET', 'pages', 'Pages'),
    scopeMisuse('GET', 'pathname-available', 'Pathname availability'),
    scopeMisuse('POST', 'move', 'Move'),
    {
      method: 'GET', path: `/${area}/name-available`, operation: `${area}.nameAvailable`, summary: `Is a ${word} name free?`,
      description: 'With `site`, checks the site-specific scope.',
      query: FragmentNameAvailableQuerySchema, response: ok(AvailabilitySchema, 'Whether the name is free, else who has it.'),
      errors: ['MISSING_REQUIRED_FIELD', 'SITE_NOT_FOUND'],
    },
    {
      method: 'GET', path: `/${area}`, operation: `${area}.list`, summary: `List ${word}s`,
      description: `With \`site\`: global and site-specific ${word}s merged, site ones shadowing global ones of the same name, each with \`scope\`.`,
      query: FragmentListQuerySchema, response: ok(FragmentListSchema, `Manifests (kind \`${word}\`).`), errors: ['SITE_NOT_FOUND'],
    },
    {
      method: 'GET', path: `/${area}/:name`, operation: `${area}.get`, summary: `One ${word} by name`,
      description: 'With `site`: the site-specific one first, then the global one. With `locale`: only that locale.',
      query: FragmentByNameQuerySchema, response: ok(FragmentManifestSchema, `The manifest (kind \`${word}\`).`), errors: ['SITE_NOT_FOUND', 'CONTENT_NOT_FOUND'],
    },
  ];
}

/**
 * Every endpoint, in the order the app registers its routes (the first match wins, as in the
 * router). The OpenAPI document is generated from this table and the schemas it names, which are
 * the ones the routes validate with; a test checks the table against the router's own route list.
 */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    method: 'GET', path: '/assets/serve/:path{.+}', operation: 'assets.serve', public: true, summary: 'Serve an asset file',
    description: 'Public (no identity needed), so that pages can show images to visitors. SVG and other active content is served with `Content-Security-Policy: sandbox`.',
    response: { status: 200, file: true, description: 'The file, with its type and `Cache-Control: public, max-age=31536000, immutable`.' },
    errors: ['ASSET_NOT_FOUND', 'INVALID_REQUEST'],
  },
  {
    method: 'GET', path: '/openapi.json', operation: 'openapi', public: true, summary: 'This OpenAPI document',
    description: 'Public (no identity needed): it describes the API and holds no content.',
    response: ok(v.looseObject({ openapi: v.string() }), 'An OpenAPI 3.1 document.'),
    errors: [],
  },
  {
    method: 'GET', path: '/auth/user', operation: 'auth.user', public: true, summary: 'Who the caller is',
    description: 'The identity the access gateway verified, or `authenticated: false`. Answers in every access mode.',
    response: ok(AuthUserSchema, 'The verified identity, if any.'),
    errors: [],
  },
  {
    method: 'GET', path: '/events', operation: 'events.subscribe', summary: 'Live changes (Server-Sent Events)',
    description: 'Stays open and announces every change: first `event: ready` with `data: {}`, then per change `event: change` with JSON data, one of '
      + '`{ kind: "content", id, locale, etag, by, action }` (`locale` null: the whole item; `etag` null: deleted; `by`: the writer\'s email, null for a change seen on disk; `action`: created, updated or deleted), '
      + '`{ kind: "asset", path, action }` (`action`: uploaded, updated, moved, deleted or folder) and `{ kind: "git", action }` (commit, pull or push). '
      + 'A `: ping` comment every 15 s keeps proxies from closing it.',
    response: { status: 200, eventStream: true, description: 'A `text/event-stream` of changes.' },
    errors: [],
  },

  { method: 'GET', path: '/content/collections', operation: 'content.collections', summary: 'All collections', description: 'Across sites and fragments.', response: ok(CollectionsSchema, 'Collection names, sorted.'), errors: [] },
  {
    method: 'GET', path: '/content/needs-review', operation: 'content.needsReview', summary: 'Locales that need review',
    description: 'Items whose given locale inherits from a default locale whose content changed since it was reviewed.',
    query: NeedsReviewQuerySchema, response: ok(ManifestListSchema, 'Manifests (no bodies).'), errors: ['MISSING_REQUIRED_FIELD'],
  },
  {
    method: 'GET', path: '/content', operation: 'content.list', summary: 'List content',
    description: '`locales=a,b`: items with at least one of them; `missingLocales=a,b`: items with none of them; `published` and `localization` as in the interface.',
    query: ListQuerySchema, response: ok(ManifestListSchema, 'Manifests (no bodies).'), errors: [],
  },
  {
    method: 'POST', path: '/content', operation: 'content.create', summary: 'Create a page, fragment or data entry',
    description: 'The default locale is required. The ID is generated (readable, unique, stable); the answer\'s etag is the default locale\'s.',
    body: { schema: CreateContentSchema },
    response: json(201, CreatedSchema, 'Created.', { etag: true }),
    errors: ['MISSING_REQUIRED_FIELD', 'METADATA_TOO_LARGE', 'SITE_NOT_FOUND', 'ALREADY_EXISTS', 'PATHNAME_TAKEN', 'WRITE_ERROR'],
  },
  {
    method: 'POST', path: '/content/batch', operation: 'content.batch', summary: 'Update many locales',
    description: 'Each operation is applied on its own; one failure does not undo the others. An operation that fails validation fails alone.',
    body: { schema: BatchBodySchema },
    response: { ...ok(BatchResultSchema, 'Every operation succeeded.'), alsoStatus: { status: 207, description: 'Some operations failed (see `operations[].error`).' } },
    errors: ['MISSING_REQUIRED_FIELD'],
  },
  { method: 'GET', path: '/content/:id', operation: 'content.get', summary: 'One item, every locale with content', response: ok(ContentEntrySchema, 'The item.'), errors: ['CONTENT_NOT_FOUND'] },
  {
    method: 'GET', path: '/content/:id/:locale', operation: 'content.getLocale', summary: 'One locale of an item',
    description: 'An inherited locale carries its default locale\'s current content.',
    response: ok(LocalizedEntrySchema, 'The locale; its etag is also in the `ETag` header.', { etag: true }), errors: ['CONTENT_NOT_FOUND'],
  },
  localeWrite('PUT', 'content.update'),
  localeWrite('PATCH', 'content.patch'),
  {
    method: 'DELETE', path: '/content/:id', operation: 'content.delete', summary: 'Delete one locale, or the whole item',
    description: 'Without `locale`, every locale is deleted and `If-Match` must be the default locale\'s etag. The default locale cannot be deleted while others exist (400 INVALID_REQUEST).',
    query: DeleteQuerySchema, ifMatch: 'required',
    response: ok(SuccessSchema, 'Deleted.'), errors: WRITE_ERRORS,
  },
  transition('content.markReviewed', '/content/:id/mark-reviewed', 'Mark an inherited locale reviewed'),
  transition('content.breakInheritance', '/content/:id/break-inheritance', 'Give an inherited locale its own copy of the content'),
  transition('content.revertToInherited', '/content/:id/revert-to-inherited', 'Discard a locale\'s own content and inherit again'),

  { method: 'GET', path: '/data/collections', operation: 'data.collections', summary: 'Collections of data entries', response: ok(CollectionsSchema, 'Collection names, sorted.'), errors: [] },
  {
    method: 'GET', path: '/data/name-available', operation: 'data.nameAvailable', summary: 'Is a data entry name free?',
    query: DataNameAvailableQuerySchema, response: ok(AvailabilitySchema, 'Whether the name is free, else who has it.'), errors: ['MISSING_REQUIRED_FIELD'],
  },
  { method: 'GET', path: '/data', operation: 'data.list', summary: 'List data entries', query: DataListQuerySchema, response: ok(ManifestListSchema, 'Manifests (no bodies).'), errors: [] },
  {
    method: 'GET', path: '/data/:name', operation: 'data.get', summary: 'One data entry by name',
    description: 'With `locale`: only that locale.',
    query: DataByNameQuerySchema, response: ok(ContentManifestSchema, 'The manifest.'), errors: ['MISSING_REQUIRED_FIELD', 'CONTENT_NOT_FOUND'],
  },

  ...fragmentEndpoints('fragment'),
  ...fragmentEndpoints('block'),

  { method: 'GET', path: '/git/status', operation: 'git.status', summary: 'Git status of the content', response: ok(GitStatusSchema, 'The status.'), errors: ['GIT_NOT_REPO', 'GIT_STATUS_FAILED'] },
  {
    method: 'POST', path: '/git/commit', operation: 'git.commit', summary: 'Commit what changed under the content root and assets folder',
    description: 'Without a message, one with the date and the files is generated. Nothing to commit: `commit: null`.',
    body: { schema: CommitBodySchema, optional: true },
    response: ok(CommitResultSchema, 'Committed (or nothing to commit).'), errors: ['GIT_NOT_REPO', 'GIT_COMMIT_FAILED'],
  },
  {
    method: 'POST', path: '/git/push', operation: 'git.push', summary: 'Push to origin (HTTPS, `GIT_TOKEN`)',
    body: { schema: EmptyBodySchema, optional: true },
    response: ok(GitSyncResultSchema, 'Pushed.'), errors: ['GIT_NOT_REPO', 'GIT_PUSH_FAILED'],
  },
  {
    method: 'POST', path: '/git/pull', operation: 'git.pull', summary: 'Fetch and rebase local commits onto origin',
    description: 'Uncommitted changes are kept. On a conflict nothing changes and the answer is GIT_PULL_FAILED with the paths in `details`.',
    body: { schema: EmptyBodySchema, optional: true },
    response: ok(GitPullResultSchema, 'Pulled; `idClashes` lists IDs that files of different items now claim, `problems` what else is wrong with the files now (a pull may bring it).'), errors: ['GIT_NOT_REPO', 'GIT_PULL_FAILED'],
  },

  { method: 'GET', path: '/assets', operation: 'assets.list', summary: 'Every asset', response: ok(AssetListSchema, 'A flat list, folder by folder.'), errors: [] },
  {
    method: 'GET', path: '/assets/folders', operation: 'assets.folder', summary: 'One folder\'s assets and subfolders',
    query: FolderQuerySchema, response: ok(FolderListingSchema, 'The folder.'), errors: ['ASSET_NOT_FOUND'],
  },
  {
    method: 'POST', path: '/assets/folders', operation: 'assets.createFolder', summary: 'Create a folder',
    description: 'Missing parents are created; an existing folder is 400 INVALID_REQUEST.',
    body: { schema: CreateFolderSchema }, response: json(201, FolderCreatedSchema, 'Created.'), errors: ['WRITE_ERROR'],
  },
  { method: 'GET', path: '/assets/folder-tree', operation: 'assets.folderTree', summary: 'The folder tree', response: ok(FolderTreeSchema, 'Folders under the root.'), errors: [] },
  { method: 'GET', path: '/assets/meta/:path{.+}', operation: 'assets.meta', summary: 'One asset\'s metadata', response: ok(AssetEntrySchema, 'The asset.'), errors: ['ASSET_NOT_FOUND', 'INVALID_REQUEST'] },
  {
    method: 'PATCH', path: '/assets/meta/:path{.+}', operation: 'assets.updateMeta', summary: 'Set or remove alt text and tags',
    description: '`null` (or empty) removes the value.',
    body: { schema: MetaPatchSchema, optional: true }, response: ok(AssetEntrySchema, 'The updated asset.'), errors: ['ASSET_NOT_FOUND', 'WRITE_ERROR'],
  },
  { method: 'DELETE', path: '/assets/meta/:path{.+}', operation: 'assets.delete', summary: 'Delete an asset', response: ok(SuccessSchema, 'Deleted.'), errors: ['ASSET_NOT_FOUND', 'INVALID_REQUEST', 'WRITE_ERROR'] },
  {
    method: 'GET', path: '/assets/usage/:path{.+}', operation: 'assets.usage', summary: 'Where content refers to an asset',
    description: 'Exact references to the asset\'s serve URL in meta, visual data, data entries and MDX links and images.',
    response: ok(AssetUsageSchema, 'The references.'), errors: ['INVALID_REQUEST'],
  },
  {
    method: 'POST', path: '/assets/upload', operation: 'assets.upload', summary: 'Upload a file',
    description: 'Streamed to disk; the size limit is enforced while streaming, and the format is read from the bytes. Missing fields are 400 INVALID_REQUEST.',
    body: { schema: UploadFieldsSchema, multipart: true },
    response: json(201, AssetEntrySchema, 'Stored (under a cleaned, unique name).'), errors: ['ASSET_TOO_LARGE', 'ASSET_INVALID_FORMAT', 'ASSET_UPLOAD_FAILED', 'WRITE_ERROR'],
  },
  {
    method: 'POST', path: '/assets/import-url', operation: 'assets.importUrl', summary: 'Import a file from a public URL',
    description: 'Only http/https to public addresses (checked after DNS and on every redirect). Every download failure is ASSET_UPLOAD_FAILED with `details.reason`.',
    body: { schema: ImportUrlSchema }, response: json(201, AssetEntrySchema, 'Downloaded and stored.'), errors: ['ASSET_UPLOAD_FAILED', 'WRITE_ERROR'],
  },
  {
    method: 'POST', path: '/assets/move', operation: 'assets.move', summary: 'Move files between folders',
    body: { schema: MoveSchema }, response: ok(AssetsMovedSchema, '`moved` counts what actually moved; `skipped` says why the rest did not.'), errors: ['WRITE_ERROR'],
  },

  { method: 'GET', path: '/sites', operation: 'sites.get', summary: 'The sites configuration', description: '`sites.json` as it is.', response: ok(SitesSchema, 'The configuration.'), errors: [] },
  {
    method: 'GET', path: '/redirects', operation: 'sites.redirects', summary: 'Redirects of moved pages',
    query: RedirectsQuerySchema, response: ok(RedirectListSchema, 'From each previous pathname to the current one.'), errors: [],
  },
  {
    method: 'GET', path: '/untranslated/:targetLocale', operation: 'sites.untranslated', summary: 'Content that lacks a locale',
    query: UntranslatedQuerySchema, response: ok(ManifestListSchema, 'Manifests of the items without that locale.'), errors: [],
  },
  {
    method: 'GET', path: '/:site/collections', operation: 'sites.collections', summary: 'Collections of a site\'s pages',
    description: 'The site `fragments` (or `blocks`) gives the fragment collections (see `/fragments/collections`).',
    response: ok(CollectionsSchema, 'Collection names, sorted.'), errors: ['ROUTE_NOT_FOUND', 'SITE_NOT_FOUND'],
  },
  {
    method: 'GET', path: '/:site/pages', operation: 'sites.pages', summary: 'A site\'s pages',
    query: PagesQuerySchema, response: ok(ManifestListSchema, 'Manifests (reduced to `locale` when given).'), errors: ['ROUTE_NOT_FOUND', 'SITE_NOT_FOUND'],
  },
  {
    method: 'GET', path: '/:site/pathname-available', operation: 'sites.pathnameAvailable', summary: 'Is a pathname free in a site and locale?',
    query: PathnameAvailableQuerySchema, response: ok(AvailabilitySchema, 'Whether the pathname is free, else who has it.'),
    errors: ['MISSING_REQUIRED_FIELD', 'ROUTE_NOT_FOUND', 'SITE_NOT_FOUND'],
  },
  {
    method: 'POST', path: '/:site/move', operation: 'sites.move', summary: 'Move a page locale to a new pathname',
    description: 'The old pathname is kept in `previousPathnames`; the site answers it with a 301 to the new one. '
      + 'The locale\'s current etag goes in the body\'s `etag` or the `If-Match` header (one of the two is required).',
    body: { schema: MoveBodySchema }, ifMatch: 'alternative', response: ok(MovedSchema, 'Moved; the locale\'s new etag.', { etag: true }),
    errors: ['MISSING_REQUIRED_FIELD', 'ROUTE_NOT_FOUND', 'SITE_NOT_FOUND', 'CONTENT_NOT_FOUND', 'PATHNAME_TAKEN', 'STALE_WRITE', 'WRITE_ERROR'],
  },
];
