import type * as v from 'valibot';
import type { ImportUrlSchema, MetaPatchSchema, MoveSchema, UploadFieldsSchema } from '../http/schemas/assets.js';
import type {
  BatchOperationSchema,
  CreateContentSchema,
  ListQuerySchema,
  LocaleUpdateSchema,
  NeedsReviewQuerySchema,
} from '../http/schemas/content.js';
import type * as R from '../http/schemas/responses.js';
import type {
  DataListQuerySchema,
  FragmentByNameQuerySchema,
  FragmentListQuerySchema,
  FragmentNameAvailableQuerySchema,
  MoveBodySchema,
  PathnameAvailableQuerySchema,
  RedirectsQuerySchema,
} from '../http/schemas/sites.js';

/**
 * The client's types, derived from the schemas the server validates with and answers by, so
 * that they cannot drift from the API.
 */

type In<S extends v.GenericSchema> = v.InferInput<S>;
type Out<S extends v.GenericSchema> = v.InferOutput<S>;
/** Query fields that are comma-separated lists on the wire also take an array. */
type WithLists<T, K extends keyof T> = Omit<T, K> & { [P in K]?: string | readonly string[] };

// Requests
export type CreateContentInput = In<typeof CreateContentSchema>;
export type LocaleUpdateData = In<typeof LocaleUpdateSchema>;
/** A batch operation; without `etag`, the remembered one is sent. */
export type BatchOperationInput = Omit<In<typeof BatchOperationSchema>, 'etag'> & { etag?: string };
export type ContentListQuery = Omit<
  WithLists<In<typeof ListQuerySchema>, 'locales' | 'missingLocales'>,
  'published'
> & { published?: boolean | 'true' | 'false' };
export type NeedsReviewQuery = Omit<In<typeof NeedsReviewQuerySchema>, 'locale'>;
export type DataListQuery = In<typeof DataListQuerySchema>;
export type FragmentListQuery = In<typeof FragmentListQuerySchema>;
export type FragmentNameQuery = Omit<In<typeof FragmentNameAvailableQuerySchema>, 'name'>;
export type FragmentGetQuery = In<typeof FragmentByNameQuerySchema>;
export type PathnameQuery = Omit<In<typeof PathnameAvailableQuerySchema>, 'pathname'>;
export type RedirectsQuery = In<typeof RedirectsQuerySchema>;
export interface UntranslatedQuery {
  excludeSites?: string | readonly string[];
  includeUnpublished?: boolean;
}
/** A page move; without `etag`, the remembered one is sent. */
export type MoveInput = Omit<In<typeof MoveBodySchema>, 'etag'> & { etag?: string };
/** Multipart text fields of an upload; `filename` names a Blob that is not a File; `tags` may be an array. */
export type UploadFields = Omit<In<typeof UploadFieldsSchema>, 'tags'> & {
  tags?: string | readonly string[];
  filename?: string;
};
/** Called with the bytes sent so far and, when the browser knows it, the body's size. */
export type UploadProgress = (loaded: number, total: number | undefined) => void;
export interface UploadOptions {
  onProgress?: UploadProgress;
  signal?: AbortSignal;
}
export type ImportUrlInput = In<typeof ImportUrlSchema>;
export type AssetMetaChange = In<typeof MetaPatchSchema>;
export type AssetMoveInput = In<typeof MoveSchema>;

// Answers
export type ContentMeta = Out<typeof R.ContentMetaSchema>;
export type ContentData = Out<typeof R.ContentDataSchema>;
export type LocaleRecord = Out<typeof R.LocaleRecordSchema>;
export type LocaleManifest = Out<typeof R.LocaleManifestSchema>;
export type ContentEntry = Out<typeof R.ContentEntrySchema>;
export type ContentManifest = Out<typeof R.ContentManifestSchema>;
export type LocalizedEntry = Out<typeof R.LocalizedEntrySchema>;
export type Review = Out<typeof R.ReviewSchema>;
export type FragmentManifest = Out<typeof R.FragmentManifestSchema>;
export type ManifestList = Out<typeof R.ManifestListSchema>;
export type FragmentList = Out<typeof R.FragmentListSchema>;
export type Collections = Out<typeof R.CollectionsSchema>;
export type Availability = Out<typeof R.AvailabilitySchema>;
export type Created = Out<typeof R.CreatedSchema>;
export type Written = Out<typeof R.WrittenSchema>;
export type Transitioned = Out<typeof R.TransitionedSchema>;
export type Success = Out<typeof R.SuccessSchema>;
export type BatchResult = Out<typeof R.BatchResultSchema>;
export type SitesConfig = Out<typeof R.SitesSchema>;
export type Moved = Out<typeof R.MovedSchema>;
export type RedirectList = Out<typeof R.RedirectListSchema>;
export type AssetEntry = Out<typeof R.AssetEntrySchema>;
export type FolderTreeNode = R.FolderTreeNode;
export type AssetList = Out<typeof R.AssetListSchema>;
export type FolderListing = Out<typeof R.FolderListingSchema>;
export type FolderCreated = Out<typeof R.FolderCreatedSchema>;
export type FolderTree = Out<typeof R.FolderTreeSchema>;
export type AssetUsage = Out<typeof R.AssetUsageSchema>;
export type AssetsMoved = Out<typeof R.AssetsMovedSchema>;
export type GitStatus = Out<typeof R.GitStatusSchema>;
export type CommitResult = Out<typeof R.CommitResultSchema>;
export type GitSyncResult = Out<typeof R.GitSyncResultSchema>;
export type GitPullResult = Out<typeof R.GitPullResultSchema>;
export type Problem = Out<typeof R.ProblemSchema>;
export type AuthUser = Out<typeof R.AuthUserSchema>;

// Live events
export type { QuireEvent } from '../events/types.js';

/** What `client.events.subscribe` calls. */
export interface EventHandlers {
  onEvent(event: import('../events/types.js').QuireEvent): void;
  /** The stream is open (again): after a reconnect, refresh what is shown, since changes may have been missed. */
  onOpen?(): void;
  /** The stream failed or dropped (a typed API error, or a network error); it reconnects by itself. */
  onError?(error: unknown): void;
}

export interface SubscribeOptions {
  /** Aborting it stops the subscription, like the function `subscribe` returns. */
  signal?: AbortSignal;
  /** The first wait before reconnecting, doubled after each failure up to `maxRetryMs`. @default 1000 */
  retryMs?: number;
  /** @default 30000 */
  maxRetryMs?: number;
}
