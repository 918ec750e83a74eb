import * as v from 'valibot';

const positiveInteger = v.pipe(v.number(), v.integer(), v.minValue(1, 'Expected a positive integer'));
const nonEmpty = v.pipe(v.string(), v.nonEmpty('Expected a non-empty string'));

export const AuthOptionSchema = v.variant(
  'type',
  [
    v.strictObject({
      type: v.literal('cloudflare-access'),
      /** e.g. `myteam.cloudflareaccess.com` (no scheme). */
      teamDomain: v.pipe(
        v.string(),
        v.regex(
          /^[A-Za-z0-9.-]+(:\d+)?$/,
          'Expected a host name such as myteam.cloudflareaccess.com, without https://',
        ),
      ),
      audience: nonEmpty,
    }),
    v.strictObject({
      type: v.literal('jwt'),
      jwksUrl: v.pipe(v.string(), v.url('Expected an absolute http(s) URL')),
      issuer: v.optional(nonEmpty),
      audience: v.optional(v.union([nonEmpty, v.array(nonEmpty)])),
      header: v.optional(nonEmpty),
      cookie: v.optional(nonEmpty),
      algorithms: v.optional(v.array(nonEmpty)),
    }),
    v.strictObject({
      type: v.literal('trusted-header'),
      emailHeader: nonEmpty,
      subHeader: v.optional(nonEmpty),
    }),
  ],
  'Expected auth.type to be "cloudflare-access", "jwt" or "trusted-header"',
);

export type AuthOption = v.InferOutput<typeof AuthOptionSchema>;

const urlPath = (example: string) =>
  v.pipe(
    v.string(),
    v.regex(
      /^(\/[A-Za-z0-9._~-]+)+$/,
      `Expected a path that starts with "/" and has no trailing "/", such as ${example}`,
    ),
  );

const PreviewTemplate = v.pipe(
  v.string(),
  v.check((value) => value.includes('{pathname}'), 'Expected a URL template containing {pathname}'),
);

export const UserOptionsSchema = v.strictObject({
  /** Folder of the content, relative to the Astro project root or absolute. @default process.env.CONTENT_PATH, else './content' */
  contentRoot: v.optional(nonEmpty),
  /** Where the API is mounted. @default '/__cms/api' */
  prefix: v.optional(urlPath('/__cms/api')),
  assets: v.optional(
    v.strictObject({
      /** @default '<contentRoot>/assets' */
      dir: v.optional(nonEmpty),
      /** @default 52428800 (50 MiB) */
      maxBytes: v.optional(positiveInteger),
      /** MIME types accepted after sniffing the bytes. */
      allowedTypes: v.optional(
        v.pipe(
          v.array(v.pipe(v.string(), v.regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'Expected a MIME type such as image/png'))),
          v.minLength(1),
        ),
      ),
    }),
  ),
  limits: v.optional(
    v.strictObject({
      /** Largest `meta` of one locale, as JSON bytes. @default 65536 */
      metadataBytes: v.optional(positiveInteger),
      /** Largest JSON request body. @default 10485760 */
      jsonBodyBytes: v.optional(positiveInteger),
      /** Memory for what is computed from all content (the item IDs of each list, needs-review and untranslated answer, asset usage, redirects), kept for repeated requests. @default 67108864 (64 MiB) */
      cacheBytes: v.optional(positiveInteger),
    }),
  ),
  auth: v.optional(AuthOptionSchema),
  /** @default true in a production build, false in `astro dev` */
  requireIdentity: v.optional(v.boolean()),
  git: v.optional(
    v.strictObject({
      /** @default process.env.GIT_BRANCH, else the current branch */
      branch: v.optional(nonEmpty),
    }),
  ),
  importUrl: v.optional(
    v.strictObject({
      allowPrivateNetworks: v.optional(v.boolean()),
    }),
  ),
  /** Answer moved pages' old pathnames with a 301. @default true */
  redirects: v.optional(v.boolean()),
  /** Other browser origins that may call the API (CORS), e.g. `https://admin.example.com`. @default [] (only the site's own origin) */
  allowedOrigins: v.optional(
    v.array(
      v.pipe(
        v.string(),
        v.check(
          (value) => isBareOrigin(value),
          'Expected an origin such as https://admin.example.com: scheme, host and optional port, no path',
        ),
      ),
    ),
  ),
  dev: v.optional(
    v.strictObject({
      /** Let clients on other machines write and run git through `astro dev --host` without a verified identity. @default false */
      allowNetworkWrites: v.optional(v.boolean()),
    }),
  ),
  /** The in-site admin: `true` at /__cms, `{ path }` elsewhere, `false` for none. @default true in `astro dev`, false in a production build */
  admin: v.optional(
    v.union(
      [
        v.boolean(),
        v.strictObject({
          path: v.optional(urlPath('/__cms')),
          /**
           * Where the editor's preview pane finds a page: a URL template, or one per site name, with
           * `{origin}` (the admin's), `{domain}` (the locale's domain from sites.json, else the admin's
           * origin), `{site}`, `{locale}`, `{localePrefix}` (empty for the site's default locale, else
           * `/<locale>`) and `{pathname}`. A template, not a function: options are serialized into the built server,
           * and the admin is a prebuilt browser bundle that could not call the owner's code anyway.
           * @default the locale's domain + pathname when sites.json gives one, else '{origin}/{locale}{pathname}'
           */
          preview: v.optional(v.union([PreviewTemplate, v.record(v.string(), PreviewTemplate)])),
        }),
      ],
      'Expected true, false or { path: "/__cms", preview: "{origin}/{locale}{pathname}" }',
    ),
  ),
});

export type UserOptions = v.InferInput<typeof UserOptionsSchema>;

function isBareOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}
