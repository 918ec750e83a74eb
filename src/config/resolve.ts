import path from 'node:path';
import * as v from 'valibot';
import { DEFAULT_DERIVED_CACHE_BYTES } from '../content/derived-cache.js';
import type { PreviewOption } from '../sites/preview-url.js';
import { type AuthOption, type UserOptions, UserOptionsSchema } from './schema.js';

export const DEFAULT_ALLOWED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/x-icon',
  'application/pdf',
];

/** Options after validation and defaults: plain JSON, safe to bake into a built server (no secrets). */
export interface ResolvedOptions {
  contentRoot: string;
  /** Whether `contentRoot` came from the option; if not, `CONTENT_PATH` at run time may move it. */
  contentRootFixed: boolean;
  prefix: string;
  assets: { dir: string; maxBytes: number; allowedTypes: string[] };
  limits: { metadataBytes: number; jsonBodyBytes: number; cacheBytes: number };
  auth: AuthOption | null;
  requireIdentity: boolean;
  git: { branch: string | null };
  importUrl: { allowPrivateNetworks: boolean };
  redirects: boolean;
  /** Normalized origins (no trailing slash). */
  allowedOrigins: string[];
  dev: { allowNetworkWrites: boolean };
  /** Where the admin is served, or null when it is off. */
  admin: { path: string; preview: PreviewOption } | null;
  mode: 'dev' | 'production';
}

export const DEFAULT_ADMIN_PATH = '/__cms';

/** `path` is `base` or lies below it. */
const within = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/** The admin's mount, or null; on by default only in `astro dev`. Its pages and files must not shadow the API, nor the API them. */
function resolveAdmin(
  option: UserOptions['admin'],
  prefix: string,
  mode: 'dev' | 'production',
): ResolvedOptions['admin'] {
  const enabled = option === undefined ? mode === 'dev' : option !== false;
  if (!enabled) return null;
  const adminPath = (typeof option === 'object' ? option.path : undefined) ?? DEFAULT_ADMIN_PATH;
  // The API may sit below the admin (the defaults: /__cms and /__cms/api), but not on it, above it or on its files.
  if (within(adminPath, prefix) || within(prefix, `${adminPath}/assets`)) {
    throw new Error(
      `astro-quire: invalid option passed to quire():\n  - admin.path: "${adminPath}" overlaps the API prefix "${prefix}"; ` +
        `choose an admin path outside it (the API may sit below the admin, but not at ${adminPath}/assets).`,
    );
  }
  return { path: adminPath, preview: (typeof option === 'object' ? option.preview : undefined) ?? null };
}

/** Validates user options; the thrown message names each bad option and what is allowed. */
export function resolveOptions(
  input: unknown,
  context: { projectRoot: string; mode: 'dev' | 'production' },
): ResolvedOptions {
  const parsed = v.safeParse(UserOptionsSchema, input ?? {});
  if (!parsed.success) {
    const lines = parsed.issues.map((issue) => `  - ${v.getDotPath(issue) ?? '(options)'}: ${issue.message}`);
    throw new Error(
      `astro-quire: invalid option${lines.length > 1 ? 's' : ''} passed to quire():\n${lines.join('\n')}`,
    );
  }
  const options = parsed.output;
  const prefix = options.prefix ?? '/__cms/api';
  const contentRoot = path.resolve(context.projectRoot, options.contentRoot ?? process.env.CONTENT_PATH ?? './content');
  return {
    contentRoot,
    contentRootFixed: options.contentRoot !== undefined,
    prefix,
    assets: {
      dir: options.assets?.dir
        ? path.resolve(context.projectRoot, options.assets.dir)
        : path.join(contentRoot, 'assets'),
      maxBytes: options.assets?.maxBytes ?? 50 * 1024 * 1024,
      allowedTypes: options.assets?.allowedTypes ?? DEFAULT_ALLOWED_TYPES,
    },
    limits: {
      metadataBytes: options.limits?.metadataBytes ?? 64 * 1024,
      jsonBodyBytes: options.limits?.jsonBodyBytes ?? 10 * 1024 * 1024,
      cacheBytes: options.limits?.cacheBytes ?? DEFAULT_DERIVED_CACHE_BYTES,
    },
    auth: options.auth ?? null,
    requireIdentity: options.requireIdentity ?? context.mode === 'production',
    git: { branch: options.git?.branch ?? null },
    importUrl: { allowPrivateNetworks: options.importUrl?.allowPrivateNetworks ?? false },
    redirects: options.redirects ?? true,
    allowedOrigins: (options.allowedOrigins ?? []).map((origin) => new URL(origin).origin),
    dev: { allowNetworkWrites: options.dev?.allowNetworkWrites ?? false },
    admin: resolveAdmin(options.admin, prefix, context.mode),
    mode: context.mode,
  };
}

/** The content root in force: the option if it was given, else `CONTENT_PATH` read now (a built server may be moved). */
export function runtimeContentRoot(options: ResolvedOptions): string {
  if (options.contentRootFixed || !process.env.CONTENT_PATH) return options.contentRoot;
  return path.resolve(process.env.CONTENT_PATH);
}

/** The media folder in force: the default one moves with the content root. */
export function runtimeAssetsDir(options: ResolvedOptions, contentRoot: string): string {
  return options.assets.dir === path.join(options.contentRoot, 'assets')
    ? path.join(contentRoot, 'assets')
    : options.assets.dir;
}

/** The one startup line: where content lives, where the API is, and who may use it. */
export function describeStartup(options: ResolvedOptions, contentRoot: string, authType: string | undefined): string {
  const access = !options.requireIdentity
    ? `open (no identity required${authType ? `; ${authType} identities recorded for attribution` : ''})`
    : authType
      ? `identity required (auth: ${authType})`
      : 'identity required, but no auth is configured: every endpoint but /auth/user, /openapi.json and asset files answers 401 ' +
        'until you set `auth` (or CF_ACCESS_TEAM_DOMAIN + CF_ACCESS_AUD) or requireIdentity: false';
  const admin = options.admin ? `, admin at ${options.admin.path}` : '';
  return `content root ${contentRoot}, API at ${options.prefix}${admin}, access: ${access}`;
}
