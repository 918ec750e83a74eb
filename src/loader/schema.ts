import type { ImageMetadata } from 'astro';
import { z } from 'astro/zod';

/**
 * The shape of a loader entry's `data`, as Astro validates it and as `getCollection` types it.
 * One schema per kind, so that a pages collection has a `pathname` and a fragments collection a `name`.
 */
const ContentSchema = z.object({
  /** Visual-editor JSON (Puck-like: `{ root, content: [{ type, props }] }`). */
  visualData: z.unknown().optional(),
  /** MDX source; `render(entry)` gives its `<Content />` (compiled by @astrojs/mdx when the site has it). */
  mdx: z.string().optional(),
  /** A data entry's (or a JSON item's) structured value. */
  data: z.record(z.string(), z.unknown()).optional(),
});

const InheritanceSchema = z.object({
  state: z.enum(['inherited', 'customized']),
  /** The default locale this locale takes (or took) its content from. */
  from: z.string(),
  /** The source's content changed since this locale was last reviewed. */
  stale: z.boolean(),
});

const common = {
  /**
   * The item's ID (unique across the content root, stable across moves), as the API's `/content/:id`
   * takes it; the entry's own ID is `<itemId>/<locale>`. Not called `id`: Astro takes any object
   * with `id` and `collection` whose collection names one of the site's collections for a reference,
   * and logs an error when no entry has that ID.
   */
  itemId: z.string(),
  locale: z.string(),
  type: z.enum(['visual', 'mdx', 'json']),
  collection: z.string(),
  meta: z.record(z.string(), z.unknown()),
  /** Resolved: an inherited locale carries its source locale's current content. */
  content: ContentSchema,
  publishAt: z.string().optional(),
  unpublishAt: z.string().optional(),
  /** Whether the locale was published when the collection was loaded; false only for drafts loaded with `includeDrafts`. */
  published: z.boolean(),
  /** Absent on a default locale. */
  inheritance: InheritanceSchema.optional(),
  created: z.string(),
  modified: z.string(),
  /**
   * Serve URL → optimisable image, for each raster asset of the media folder that `meta` or
   * `content` names (for `<Image>`/`getImage`, or `assetImage(entry, url)`). Filled by the loader
   * after validation (Astro imports the files), so never given in content.
   */
  images: z.record(z.string(), z.custom<ImageMetadata>()).optional(),
};

export const PageEntrySchema = z.object({
  ...common,
  kind: z.literal('page'),
  site: z.string(),
  pathname: z.string(),
  /** Pathnames this locale was moved away from (the integration answers them with a 301). */
  previousPathnames: z.array(z.string()).optional(),
});

export const FragmentEntrySchema = z.object({
  ...common,
  kind: z.literal('fragment'),
  /** Set on a site-specific fragment; absent on a global one. */
  site: z.string().optional(),
  name: z.string(),
});

export const DataEntrySchema = z.object({
  ...common,
  kind: z.literal('data'),
  name: z.string(),
});

export const ENTRY_SCHEMAS = { page: PageEntrySchema, fragment: FragmentEntrySchema, data: DataEntrySchema } as const;

export type PageEntryData = z.infer<typeof PageEntrySchema>;
export type FragmentEntryData = z.infer<typeof FragmentEntrySchema>;
export type DataEntryData = z.infer<typeof DataEntrySchema>;
export type EntryData = PageEntryData | FragmentEntryData | DataEntryData;
