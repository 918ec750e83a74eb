import fs from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime';
import { packageDistFile } from '../util/package-files.js';
import type { AdminManifest } from './shell.js';

/** The prebuilt admin (`dist/admin` of the installed package). */
export function adminFilesDir(): string {
  return packageDistFile('admin');
}

/**
 * Read on every shell request, so a rebuilt admin shows without restarting `astro dev` (the shell
 * is rare; its files are cached). Null when the package was built without its admin.
 */
export async function readManifest(dir: string): Promise<AdminManifest | null> {
  const text = await fs.readFile(path.join(dir, 'manifest.json'), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  return text === null ? null : (JSON.parse(text) as AdminManifest);
}

const TEXT_TYPES = /^(text\/|application\/(javascript|json)|image\/svg\+xml)/;

function contentTypeOf(file: string): string {
  const type = mime.getType(file) ?? 'application/octet-stream';
  return TEXT_TYPES.test(type) ? `${type}; charset=utf-8` : type;
}

/** Each segment must be a plain name: no `..`, `.`, empty segment, backslash or NUL. */
function safeSegments(relative: string): string[] | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return null;
  }
  const segments = decoded.split('/');
  return segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !/[\\\0]/.test(segment))
    ? segments
    : null;
}

const notFound = () =>
  new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/**
 * One of the admin's hashed files. Their names change with their content, so they are cached for
 * good; anything else (a missing file, a path that tries to leave the folder) is a plain 404.
 */
export async function serveAdminFile(dir: string, relative: string, withBody: boolean): Promise<Response> {
  const segments = safeSegments(relative);
  if (!segments) return notFound();
  const file = path.join(dir, ...segments);
  if (!file.startsWith(dir + path.sep)) return notFound();
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat?.isFile()) return notFound();
  const headers = {
    'content-type': contentTypeOf(file),
    'content-length': String(stat.size),
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
  };
  return new Response(withBody ? await fs.readFile(file) : null, { status: 200, headers });
}
