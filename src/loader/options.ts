import * as v from 'valibot';
import { CollectionName, LocaleCode, SiteName } from '../content/codes.js';
import { KINDS, type Kind } from '../content/types.js';

export interface QuireLoaderOptions<K extends Kind = Kind> {
  /** The kind of item the collection holds: `page`, `fragment` or `data`. */
  kind: K;
  /**
   * Pages: only this site's. Fragments: the site's own plus the global fragments it does not
   * shadow (as `GET /fragments?site=` answers). Not allowed for data entries, which have no site.
   * @default every site (and, for fragments, global and site-specific ones alike)
   */
  site?: string;
  /** Only items of this collection. @default every collection */
  collection?: string;
  /** Only these locales. @default every locale */
  locale?: string | string[];
  /**
   * Folder holding `sites.json` and the content files, relative to the Astro project root or absolute.
   * @default the integration's content root when the site uses `quire()`, else process.env.CONTENT_PATH, else './content'
   */
  contentRoot?: string;
  /**
   * In `astro dev`, also load locales that are not published now (unpublished or scheduled), with
   * `published: false`. `astro build` always leaves them out.
   * @default false
   */
  includeDrafts?: boolean;
}

const OptionsSchema = v.pipe(
  v.strictObject({
    kind: v.picklist(KINDS, `Expected one of ${KINDS.map((kind) => `"${kind}"`).join(', ')}`),
    site: v.optional(SiteName),
    collection: v.optional(CollectionName),
    locale: v.optional(
      v.union([LocaleCode, v.pipe(v.array(LocaleCode), v.minLength(1, 'Expected at least one locale'))]),
    ),
    contentRoot: v.optional(v.pipe(v.string(), v.minLength(1, 'Expected a folder'))),
    includeDrafts: v.optional(v.boolean()),
  }),
  v.forward(
    v.check(
      (options) => !(options.kind === 'data' && options.site !== undefined),
      'Data entries belong to no site; leave `site` out',
    ),
    ['site'],
  ),
);

export interface ResolvedLoaderOptions {
  kind: Kind;
  site?: string;
  collection?: string;
  locales?: ReadonlySet<string>;
  contentRoot?: string;
  includeDrafts: boolean;
}

/** Validates the options once, where they are given: a bad option fails the config with a message naming it. */
export function resolveLoaderOptions(input: unknown): ResolvedLoaderOptions {
  const parsed = v.safeParse(OptionsSchema, input);
  if (!parsed.success) {
    const lines = parsed.issues.map((issue) => `  - ${v.getDotPath(issue) ?? '(options)'}: ${issue.message}`);
    throw new Error(
      `astro-quire: invalid option${lines.length > 1 ? 's' : ''} passed to quireLoader():\n${lines.join('\n')}`,
    );
  }
  const { locale, ...rest } = parsed.output;
  return {
    ...rest,
    includeDrafts: rest.includeDrafts ?? false,
    ...(locale !== undefined && { locales: new Set(typeof locale === 'string' ? [locale] : locale) }),
  };
}
