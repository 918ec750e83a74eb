import * as v from 'valibot';
import type { ErrorCode } from '../errors.js';
import { defineEndpoint, type Endpoint, type EndpointSpec } from './endpoint.js';
import {
  CreateFolderSchema,
  FolderQuerySchema,
  ImportUrlSchema,
  MetaPatchSchema,
  MoveSchema,
  UploadFieldsSchema,
} from './schemas/assets.js';
import {
  BatchSchema,
  CreateContentSchema,
  DeleteQuerySchema,
  ListQuerySchema,
  LocaleUpdateSchema,
  NeedsReviewQuerySchema,
  TransitionQuerySchema,
  WriteQuerySchema,
} from './schemas/content.js';
import { CommitBodySchema, EmptyBodySchema } from './schemas/git.js';
import {
  AssetPathParams,
  IdParams,
  LocaleParams,
  NameParams,
  SiteParams,
  TargetLocaleParams,
} from './schemas/params.js';
import {
  AssetEntrySchema,
  AssetListSchema,
  AssetsMovedSchema,
  AssetUsageSchema,
  AuthUserSchema,
  AvailabilitySchema,
  BatchResultSchema,
  CollectionsSchema,
  CommitResultSchema,
  ContentEntrySchema,
  ContentManifestSchema,
  CreatedSchema,
  FolderCreatedSchema,
  FolderListingSchema,
  FolderTreeSchema,
  FragmentListSchema,
  FragmentManifestSchema,
  GitPullResultSchema,
  GitStatusSchema,
  GitSyncResultSchema,
  LocalizedEntrySchema,
  ManifestListSchema,
  MovedSchema,
  RedirectListSchema,
  ReviewSchema,
  SitesSchema,
  SuccessSchema,
  TransitionedSchema,
  WrittenSchema,
} from './schemas/responses.js';
import {
  DataByNameQuerySchema,
  DataListQuerySchema,
  DataNameAvailableQuerySchema,
  FragmentByNameQuerySchema,
  FragmentListQuerySchema,
  FragmentNameAvailableQuerySchema,
  MoveBodySchema,
  PagesQuerySchema,
  PathnameAvailableQuerySchema,
  RedirectsQuerySchema,
  UntranslatedQuerySchema,
} from './schemas/sites.js';

const json = <S extends v.GenericSchema>(status: number, schema: S, description: string) => ({
  status,
  schema,
  description,
});
const ok = <S extends v.GenericSchema>(schema: S, description: string) => json(200, schema, description);
const okWithEtag = <S extends v.GenericSchema>(schema: S, description: string) => ({
  ...ok(schema, description),
  etag: true as const,
});

const WRITE_ERRORS = ['MISSING_REQUIRED_FIELD', 'CONTENT_NOT_FOUND', 'STALE_WRITE', 'WRITE_ERROR'] as const;

const transition = (path: string, summary: string) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    description:
      "Takes `locale` and the locale's current etag, in the `etag` query parameter or the `If-Match` header " +
      '(one of the two is required). The wrong inheritance state (or the default locale) is 400 INVALID_REQUEST.',
    params: IdParams,
    query: TransitionQuerySchema,
    ifMatch: 'alternative',
    response: okWithEtag(TransitionedSchema, "The locale's new etag."),
    errors: WRITE_ERRORS,
  });

const localeWrite = <const M extends 'PUT' | 'PATCH'>(method: M) =>
  defineEndpoint({
    method,
    path: '/content/:id',
    summary: method === 'PUT' ? 'Update (or add) one locale' : 'Update (or add) one locale (same as PUT)',
    description:
      'Only the supplied fields change: `meta` is merged key by key (null removes a key), `content` is replaced. ' +
      'A locale that does not exist yet is created (inherited when it has no `content`). ' +
      'The current etag goes in `etag` or `If-Match`; with neither the write is not checked for conflicts.',
    params: IdParams,
    query: WriteQuerySchema,
    ifMatch: 'alternative',
    body: { schema: LocaleUpdateSchema, optional: true },
    response: okWithEtag(WrittenSchema, "Written; the locale's new etag."),
    errors: [...WRITE_ERRORS, 'METADATA_TOO_LARGE', 'PATHNAME_TAKEN', 'ALREADY_EXISTS', 'SITE_NOT_FOUND'],
  });

/** `/fragments/*` and `/blocks/*`: the same items under two words (and the Sites routes for that scope). */
function fragmentEndpoints(word: 'fragment' | 'block') {
  const area = `${word}s`;
  const scopeMisuse = <const M extends 'GET' | 'POST'>(method: M, path: string, what: string) =>
    defineEndpoint({
      method,
      path: `/${area}/${path}`,
      summary: `${what}: not available for the ${area} scope`,
      description:
        `The \`/{site}/${path}\` route with the site \`${area}\`: ${area} have no pages, pathnames or moves, ` +
        'so this always answers 400 INVALID_REQUEST.',
      errors: ['INVALID_REQUEST'],
      clientMethod: false,
    });
  return {
    collections: defineEndpoint({
      method: 'GET',
      path: `/${area}/collections`,
      summary: `Collections of ${word}s`,
      response: ok(CollectionsSchema, 'Collection names, sorted.'),
      errors: [],
    }),
    pages: scopeMisuse('GET', 'pages', 'Pages'),
    pathnameAvailable: scopeMisuse('GET', 'pathname-available', 'Pathname availability'),
    move: scopeMisuse('POST', 'move', 'Move'),
    nameAvailable: defineEndpoint({
      method: 'GET',
      path: `/${area}/name-available`,
      summary: `Is a ${word} name free?`,
      description: 'With `site`, checks the site-specific scope.',
      query: FragmentNameAvailableQuerySchema,
      response: ok(AvailabilitySchema, 'Whether the name is free, else who has it.'),
      errors: ['MISSING_REQUIRED_FIELD', 'SITE_NOT_FOUND'],
    }),
    list: defineEndpoint({
      method: 'GET',
      path: `/${area}`,
      summary: `List ${word}s`,
      description:
        `With \`site\`: global and site-specific ${word}s merged, ` +
        'site ones shadowing global ones of the same name, each with `scope`.',
      query: FragmentListQuerySchema,
      response: ok(FragmentListSchema, `Manifests (kind \`${word}\`).`),
      errors: ['SITE_NOT_FOUND'],
    }),
    get: defineEndpoint({
      method: 'GET',
      path: `/${area}/:name`,
      summary: `One ${word} by name`,
      description: 'With `site`: the site-specific one first, then the global one. With `locale`: only that locale.',
      params: NameParams,
      query: FragmentByNameQuerySchema,
      response: ok(FragmentManifestSchema, `The manifest (kind \`${word}\`).`),
      errors: ['SITE_NOT_FOUND', 'CONTENT_NOT_FOUND'],
    }),
  };
}

/**
 * The API: every endpoint, declared once, by area (`area.name` is the client's method and the
 * OpenAPI operationId's source). Routes are registered in this order and the first match wins,
 * so a fixed path comes before a parameter that would also match it, and `/{site}/…` comes last.
 */
export const API = {
  openapi: defineEndpoint({
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    summary: 'This OpenAPI document',
    description: 'Public (no identity needed): it describes the API and holds no content.',
    response: ok(v.looseObject({ openapi: v.string() }), 'An OpenAPI 3.1 document.'),
    errors: [],
  }),

  auth: {
    user: defineEndpoint({
      method: 'GET',
      path: '/auth/user',
      access: 'public',
      summary: 'Who the caller is',
      description: 'The identity the access gateway verified, or `authenticated: false`. Answers in every access mode.',
      response: ok(AuthUserSchema, 'The verified identity, if any.'),
      errors: [],
    }),
  },

  events: {
    subscribe: defineEndpoint({
      method: 'GET',
      path: '/events',
      summary: 'Live changes (Server-Sent Events)',
      description:
        'Stays open and announces every change: first `event: ready` with `data: {}`, then per change `event: change` ' +
        'with JSON data, one of `{ kind: "content", id, locale, etag, by, action }` (`locale` null: the whole item; ' +
        "`etag` null: deleted; `by`: the writer's email, null for a change seen on disk; `action`: created, updated " +
        'or deleted), `{ kind: "asset", path, action }` (`action`: uploaded, updated, moved, deleted or folder) and ' +
        '`{ kind: "git", action }` (commit, pull or push). A `: ping` comment every 15 s keeps proxies from closing it.',
      response: { status: 200, eventStream: true, description: 'A `text/event-stream` of changes.' },
      errors: [],
    }),
  },

  assets: {
    serve: defineEndpoint({
      method: 'GET',
      path: '/assets/serve/:path{.+}',
      access: 'public',
      summary: 'Serve an asset file',
      description:
        'Public (no identity needed), so that pages can show images to visitors. ' +
        'SVG and other active content is served with `Content-Security-Policy: sandbox`. HEAD answers the headers alone.',
      params: AssetPathParams,
      missingIsInvalid: true,
      response: {
        status: 200,
        file: true,
        description: 'The file, with its type and `Cache-Control: public, max-age=31536000, immutable`.',
      },
      errors: ['ASSET_NOT_FOUND', 'INVALID_REQUEST'],
    }),
    list: defineEndpoint({
      method: 'GET',
      path: '/assets',
      summary: 'Every asset',
      response: ok(AssetListSchema, 'A flat list, folder by folder.'),
      errors: [],
    }),
    folder: defineEndpoint({
      method: 'GET',
      path: '/assets/folders',
      summary: "One folder's assets and subfolders",
      query: FolderQuerySchema,
      missingIsInvalid: true,
      response: ok(FolderListingSchema, 'The folder.'),
      errors: ['ASSET_NOT_FOUND'],
    }),
    createFolder: defineEndpoint({
      method: 'POST',
      path: '/assets/folders',
      summary: 'Create a folder',
      description: 'Missing parents are created; an existing folder is 400 INVALID_REQUEST.',
      body: { schema: CreateFolderSchema },
      missingIsInvalid: true,
      response: json(201, FolderCreatedSchema, 'Created.'),
      errors: ['WRITE_ERROR'],
    }),
    folderTree: defineEndpoint({
      method: 'GET',
      path: '/assets/folder-tree',
      summary: 'The folder tree',
      response: ok(FolderTreeSchema, 'Folders under the root.'),
      errors: [],
    }),
    meta: defineEndpoint({
      method: 'GET',
      path: '/assets/meta/:path{.+}',
      summary: "One asset's metadata",
      params: AssetPathParams,
      missingIsInvalid: true,
      response: ok(AssetEntrySchema, 'The asset.'),
      errors: ['ASSET_NOT_FOUND', 'INVALID_REQUEST'],
    }),
    updateMeta: defineEndpoint({
      method: 'PATCH',
      path: '/assets/meta/:path{.+}',
      summary: 'Set or remove alt text and tags',
      description: '`null` (or empty) removes the value.',
      params: AssetPathParams,
      body: { schema: MetaPatchSchema, optional: true },
      missingIsInvalid: true,
      response: ok(AssetEntrySchema, 'The updated asset.'),
      errors: ['ASSET_NOT_FOUND', 'WRITE_ERROR'],
    }),
    delete: defineEndpoint({
      method: 'DELETE',
      path: '/assets/meta/:path{.+}',
      summary: 'Delete an asset',
      params: AssetPathParams,
      missingIsInvalid: true,
      response: ok(SuccessSchema, 'Deleted.'),
      errors: ['ASSET_NOT_FOUND', 'INVALID_REQUEST', 'WRITE_ERROR'],
    }),
    usage: defineEndpoint({
      method: 'GET',
      path: '/assets/usage/:path{.+}',
      summary: 'Where content refers to an asset',
      description:
        "Exact references to the asset's serve URL in meta, visual data, data entries and MDX links and images.",
      params: AssetPathParams,
      missingIsInvalid: true,
      response: ok(AssetUsageSchema, 'The references.'),
      errors: ['INVALID_REQUEST'],
    }),
    upload: defineEndpoint({
      method: 'POST',
      path: '/assets/upload',
      summary: 'Upload a file',
      description:
        'Streamed to disk; the size limit is enforced while streaming, and the format is read from the bytes. ' +
        'Missing fields are 400 INVALID_REQUEST.',
      body: { schema: UploadFieldsSchema, multipart: true },
      missingIsInvalid: true,
      response: json(201, AssetEntrySchema, 'Stored (under a cleaned, unique name).'),
      errors: ['ASSET_TOO_LARGE', 'ASSET_INVALID_FORMAT', 'ASSET_UPLOAD_FAILED', 'WRITE_ERROR'],
    }),
    importUrl: defineEndpoint({
      method: 'POST',
      path: '/assets/import-url',
      summary: 'Import a file from a public URL',
      description:
        'Only http/https to public addresses (checked after DNS and on every redirect). ' +
        'Every download failure is ASSET_UPLOAD_FAILED with `details.reason`.',
      body: { schema: ImportUrlSchema },
      missingIsInvalid: true,
      response: json(201, AssetEntrySchema, 'Downloaded and stored.'),
      errors: ['ASSET_UPLOAD_FAILED', 'WRITE_ERROR'],
    }),
    move: defineEndpoint({
      method: 'POST',
      path: '/assets/move',
      summary: 'Move files between folders',
      body: { schema: MoveSchema },
      missingIsInvalid: true,
      response: ok(AssetsMovedSchema, '`moved` counts what actually moved; `skipped` says why the rest did not.'),
      errors: ['WRITE_ERROR'],
    }),
  },

  content: {
    collections: defineEndpoint({
      method: 'GET',
      path: '/content/collections',
      summary: 'All collections',
      description: 'Of pages (across sites) and fragments.',
      response: ok(CollectionsSchema, 'Collection names, sorted.'),
      errors: [],
    }),
    needsReview: defineEndpoint({
      method: 'GET',
      path: '/content/needs-review',
      summary: 'Locales that need review',
      description:
        'Items whose given locale inherits from a default locale whose content changed since it was reviewed.',
      query: NeedsReviewQuerySchema,
      response: ok(ManifestListSchema, 'Manifests (no bodies).'),
      errors: ['MISSING_REQUIRED_FIELD'],
    }),
    list: defineEndpoint({
      method: 'GET',
      path: '/content',
      summary: 'List content',
      description:
        '`locales=a,b`: items with at least one of them; `missingLocales=a,b`: items with none of them. ' +
        '`published=true`: published now; `localization`: `complete` (every configured locale), ' +
        '`partial` (some but not all), `one` (only one). Inherited locales count as present.',
      query: ListQuerySchema,
      response: ok(ManifestListSchema, 'Manifests (no bodies).'),
      errors: [],
    }),
    create: defineEndpoint({
      method: 'POST',
      path: '/content',
      summary: 'Create a page, fragment or data entry',
      description:
        "The default locale is required. The ID is generated (readable, unique, stable); the answer's etag is the default locale's.",
      body: { schema: CreateContentSchema },
      response: { ...json(201, CreatedSchema, 'Created.'), etag: true as const },
      errors: [
        'MISSING_REQUIRED_FIELD',
        'METADATA_TOO_LARGE',
        'SITE_NOT_FOUND',
        'ALREADY_EXISTS',
        'PATHNAME_TAKEN',
        'WRITE_ERROR',
      ],
    }),
    batch: defineEndpoint({
      method: 'POST',
      path: '/content/batch',
      summary: 'Update many locales',
      description:
        'Each operation is applied on its own; one failure does not undo the others. An operation that fails validation fails alone.',
      body: { schema: BatchSchema },
      response: {
        ...ok(BatchResultSchema, 'Every operation succeeded.'),
        alsoStatus: { status: 207, description: 'Some operations failed (see `operations[].error`).' },
      },
      errors: ['MISSING_REQUIRED_FIELD'],
    }),
    get: defineEndpoint({
      method: 'GET',
      path: '/content/:id',
      summary: 'One item, every locale with content',
      params: IdParams,
      response: ok(ContentEntrySchema, 'The item.'),
      errors: ['CONTENT_NOT_FOUND'],
    }),
    getLocale: defineEndpoint({
      method: 'GET',
      path: '/content/:id/:locale',
      summary: 'One locale of an item',
      description: "An inherited locale carries its default locale's current content.",
      params: LocaleParams,
      response: okWithEtag(LocalizedEntrySchema, 'The locale; its etag is also in the `ETag` header.'),
      errors: ['CONTENT_NOT_FOUND'],
    }),
    review: defineEndpoint({
      method: 'GET',
      path: '/content/:id/:locale/review',
      summary: 'What changed in the source since a translation was reviewed',
      description:
        'For a locale that inherits (or was customized from) its default locale: the default content as it was at the ' +
        'etag the locale recorded (found in git history, newest first, or in the local cache of replaced versions; ' +
        '`reviewed: null` with `reason` when neither has it), the default content now, the translation, and the ' +
        'difference: per meta key, per content field path, and for MDX per line with word-level changes. ' +
        'A locale that inherits nothing (the default locale) is 400 INVALID_REQUEST.',
      params: LocaleParams,
      response: ok(ReviewSchema, 'The review.'),
      errors: ['CONTENT_NOT_FOUND'],
    }),
    update: localeWrite('PUT'),
    patch: localeWrite('PATCH'),
    delete: defineEndpoint({
      method: 'DELETE',
      path: '/content/:id',
      summary: 'Delete one locale, or the whole item',
      description:
        "Without `locale`, every locale is deleted and `If-Match` must be the default locale's etag. " +
        'The default locale cannot be deleted while others exist (400 INVALID_REQUEST).',
      params: IdParams,
      query: DeleteQuerySchema,
      ifMatch: 'required',
      response: ok(SuccessSchema, 'Deleted.'),
      errors: WRITE_ERRORS,
    }),
    markReviewed: transition(
      '/content/:id/mark-reviewed',
      'Mark an inherited locale (or a customized one whose source changed since) reviewed',
    ),
    breakInheritance: transition(
      '/content/:id/break-inheritance',
      'Give an inherited locale its own copy of the content',
    ),
    revertToInherited: transition(
      '/content/:id/revert-to-inherited',
      "Discard a locale's own content and inherit again",
    ),
  },

  data: {
    collections: defineEndpoint({
      method: 'GET',
      path: '/data/collections',
      summary: 'Collections of data entries',
      response: ok(CollectionsSchema, 'Collection names, sorted.'),
      errors: [],
    }),
    nameAvailable: defineEndpoint({
      method: 'GET',
      path: '/data/name-available',
      summary: 'Is a data entry name free?',
      query: DataNameAvailableQuerySchema,
      response: ok(AvailabilitySchema, 'Whether the name is free, else who has it.'),
      errors: ['MISSING_REQUIRED_FIELD'],
    }),
    list: defineEndpoint({
      method: 'GET',
      path: '/data',
      summary: 'List data entries',
      query: DataListQuerySchema,
      response: ok(ManifestListSchema, 'Manifests (no bodies).'),
      errors: [],
    }),
    get: defineEndpoint({
      method: 'GET',
      path: '/data/:name',
      summary: 'One data entry by name',
      description: 'With `locale`: only that locale.',
      params: NameParams,
      query: DataByNameQuerySchema,
      response: ok(ContentManifestSchema, 'The manifest.'),
      errors: ['MISSING_REQUIRED_FIELD', 'CONTENT_NOT_FOUND'],
    }),
  },

  fragments: fragmentEndpoints('fragment'),
  blocks: fragmentEndpoints('block'),

  git: {
    status: defineEndpoint({
      method: 'GET',
      path: '/git/status',
      summary: 'Git status of the content',
      response: ok(GitStatusSchema, 'The status.'),
      errors: ['GIT_NOT_REPO', 'GIT_STATUS_FAILED'],
    }),
    commit: defineEndpoint({
      method: 'POST',
      path: '/git/commit',
      summary: 'Commit what changed under the content root and assets folder',
      description:
        'Without a message, one with the date and the files is generated. Nothing to commit: `commit: null`.',
      body: { schema: CommitBodySchema, optional: true },
      response: ok(CommitResultSchema, 'Committed (or nothing to commit).'),
      errors: ['GIT_NOT_REPO', 'GIT_COMMIT_FAILED'],
    }),
    push: defineEndpoint({
      method: 'POST',
      path: '/git/push',
      summary: 'Push to origin (HTTPS, `GIT_TOKEN`)',
      body: { schema: EmptyBodySchema, optional: true },
      response: ok(GitSyncResultSchema, 'Pushed.'),
      errors: ['GIT_NOT_REPO', 'GIT_PUSH_FAILED'],
    }),
    pull: defineEndpoint({
      method: 'POST',
      path: '/git/pull',
      summary: 'Fetch and rebase local commits onto origin',
      description:
        'Uncommitted changes are kept. On a conflict nothing changes and the answer is GIT_PULL_FAILED with the paths in `details`.',
      body: { schema: EmptyBodySchema, optional: true },
      response: ok(
        GitPullResultSchema,
        'Pulled; `idClashes` lists IDs that files of different items now claim, ' +
          '`problems` what else is wrong with the files now (a pull may bring it).',
      ),
      errors: ['GIT_NOT_REPO', 'GIT_PULL_FAILED'],
    }),
  },

  sites: {
    get: defineEndpoint({
      method: 'GET',
      path: '/sites',
      summary: 'The sites configuration',
      description: '`sites.json` as it is.',
      response: ok(SitesSchema, 'The configuration.'),
      errors: [],
    }),
    redirects: defineEndpoint({
      method: 'GET',
      path: '/redirects',
      summary: 'Redirects of moved pages',
      query: RedirectsQuerySchema,
      response: ok(RedirectListSchema, 'From each previous pathname to the current one.'),
      errors: [],
    }),
    untranslated: defineEndpoint({
      method: 'GET',
      path: '/untranslated/:targetLocale',
      summary: 'Content that lacks a locale',
      params: TargetLocaleParams,
      query: UntranslatedQuerySchema,
      response: ok(ManifestListSchema, 'Manifests of the items without that locale.'),
      errors: [],
    }),
    collections: defineEndpoint({
      method: 'GET',
      path: '/:site/collections',
      summary: "Collections of a site's pages",
      description: 'The site `fragments` (or `blocks`) gives the fragment collections (see `/fragments/collections`).',
      params: SiteParams,
      response: ok(CollectionsSchema, 'Collection names, sorted.'),
      errors: ['ROUTE_NOT_FOUND', 'SITE_NOT_FOUND'],
    }),
    pages: defineEndpoint({
      method: 'GET',
      path: '/:site/pages',
      summary: "A site's pages",
      params: SiteParams,
      query: PagesQuerySchema,
      response: ok(ManifestListSchema, 'Manifests (reduced to `locale` when given).'),
      errors: ['ROUTE_NOT_FOUND', 'SITE_NOT_FOUND'],
    }),
    pathnameAvailable: defineEndpoint({
      method: 'GET',
      path: '/:site/pathname-available',
      summary: 'Is a pathname free in a site and locale?',
      params: SiteParams,
      query: PathnameAvailableQuerySchema,
      response: ok(AvailabilitySchema, 'Whether the pathname is free, else who has it.'),
      errors: ['MISSING_REQUIRED_FIELD', 'ROUTE_NOT_FOUND', 'SITE_NOT_FOUND'],
    }),
    move: defineEndpoint({
      method: 'POST',
      path: '/:site/move',
      summary: 'Move a page locale to a new pathname',
      description:
        'The old pathname is kept in `previousPathnames`; the site answers it with a 301 to the new one. ' +
        "The locale's current etag goes in the body's `etag` or the `If-Match` header (one of the two is required).",
      params: SiteParams,
      body: { schema: MoveBodySchema },
      ifMatch: 'alternative',
      response: okWithEtag(MovedSchema, "Moved; the locale's new etag."),
      errors: [
        'MISSING_REQUIRED_FIELD',
        'ROUTE_NOT_FOUND',
        'SITE_NOT_FOUND',
        'CONTENT_NOT_FOUND',
        'PATHNAME_TAKEN',
        'STALE_WRITE',
        'WRITE_ERROR',
      ],
    }),
  },
};

const isEndpoint = (entry: object): entry is EndpointSpec => 'method' in entry && 'path' in entry;

/** Every endpoint with its operation name (`content.getLocale`, `openapi`), in registration order. */
export const ENDPOINTS: readonly Endpoint[] = Object.entries(API).flatMap(([area, entry]) =>
  isEndpoint(entry)
    ? [{ ...entry, operation: area }]
    : Object.entries(entry as Record<string, EndpointSpec>).map(([name, endpoint]) => ({
        ...endpoint,
        operation: `${area}.${name}`,
      })),
);

/** The codes every endpoint of its kind can answer with, besides its own. */
export function errorCodesOf(endpoint: EndpointSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>(endpoint.errors);
  if (endpoint.params || endpoint.query || endpoint.body) codes.add('INVALID_REQUEST');
  if (endpoint.ifMatch === 'required') codes.add('MISSING_REQUIRED_FIELD');
  if (endpoint.body && !endpoint.body.multipart) {
    codes.add('PAYLOAD_TOO_LARGE');
    codes.add('UNSUPPORTED_MEDIA_TYPE');
  }
  if (endpoint.access !== 'public') codes.add('UNAUTHORIZED');
  codes.add('FORBIDDEN_ORIGIN');
  if (endpoint.method !== 'GET') codes.add('FORBIDDEN_CLIENT');
  codes.add('INTERNAL_ERROR');
  return [...codes];
}
