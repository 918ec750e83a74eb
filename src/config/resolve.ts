import path from 'node:path';
import * as v from 'valibot';
import { UserOptionsSchema, type AuthOption } from './schema.js';

export const DEFAULT_ALLOWED_TYPES = [
  'image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif',
  'image/svg+xml', 'image/x-icon', 'application/pdf',
];

/** Options after validation and defaults: plain JSON, safe to bake into a built server (no secrets). */
export interface ResolvedOptions {
  contentRoot: string;
  /** Whether `contentRoot` came from the option; if not, `CONTENT_PATH` at run time may move it. */
  contentRootFixed: boolean;
  prefix: string;
  assets: { dir: string; maxBytes: number; allowedTypes: string[] };
  limits: { metadataBytes: number; jsonBodyBytes: number };
  auth: AuthOption | null;
  requireIdentity: boolean;
  git: { branch: string | null };
  importUrl: { allowPrivateNetworks: boolean };
  redirects: boolean;
  mode: 'dev' | 'production';
}

/** Validates user options; the thrown message names each bad option and what is allowed. */
export function resolveOptions(input: unknown, context: { projectRoot: string; mode: 'dev' | 'production' }): ResolvedOptions {
  const parsed = v.safeParse(UserOptionsSchema, input ?? {});
  if (!parsed.success) {
    const lines = parsed.issues.map((issue) => `  - ${v.getDotPath(issue) ?? '(options)'}: ${issue.message}`);
    throw new Error(`astro-quire: invalid option${lines.length > 1 ? 's' : ''} passed to quire():\n${lines.join('\n')}`);
  }
  const options = parsed.output;
  const contentRoot = path.resolve(context.projectRoot, options.contentRoot ?? process.env.CONTENT_PATH ?? './content');
  return {
    contentRoot,
    contentRootFixed: options.contentRoot !== undefined,
    prefix: options.prefix ?? '/__cms/api',
    assets: {
      dir: options.assets?.dir ? path.resolve(context.projectRoot, options.assets.dir) : path.join(contentRoot, 'assets'),
      maxBytes: options.assets?.maxBytes ?? 50 * 1024 * 1024,
      allowedTypes: options.assets?.allowedTypes ?? DEFAULT_ALLOWED_TYPES,
    },
    limits: {
      metadataBytes: options.limits?.metadataBytes ?? 64 * 1024,
      jsonBodyBytes: options.limits?.jsonBodyBytes ?? 10 * 1024 * 1024,
    },
    auth: options.auth ?? null,
    requireIdentity: options.requireIdentity ?? context.mode === 'production',
    git: { branch: options.git?.branch ?? null },
    importUrl: { allowPrivateNetworks: options.importUrl?.allowPrivateNetworks ?? false },
    redirects: options.redirects ?? true,
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
  return options.assets.dir === path.join(options.contentRoot, 'assets') ? path.join(contentRoot, 'assets') : options.assets.dir;
}

/** The one startup line: where content lives, where the API is, and who may use it. */
export function describeStartup(options: ResolvedOptions, contentRoot: string, authType: string | undefined): string {
  const access = !options.requireIdentity
    ? `open (no identity required${authType ? `; ${authType} identities recorded for attribution` : ''})`
    : authType
      ? `identity required (auth: ${authType})`
      : 'identity required, but no auth is configured: every endpoint but /auth/user, /openapi.json and asset files answers 401 until you set `auth` (or CF_ACCESS_TEAM_DOMAIN + CF_ACCESS_AUD) or requireIdentity: false';
  return `content root ${contentRoot}, API at ${options.prefix}, access: ${access}`;
}
