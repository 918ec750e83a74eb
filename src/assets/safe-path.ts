import fsSync from 'node:fs';
import path from 'node:path';
import { fsErrorCode, QuireError } from '../errors.js';

const CONTROL = /[\u0000-\u001f\u007f]/;
/** `%2e`, and IIS's `%u002e`: an escape still there after the router's one decoding. */
const PERCENT_ESCAPE = /%(?:[0-9a-f]{2}|u[0-9a-f]{4})/i;
const DRIVE = /^[a-z]:/i;

const invalid = (field: string, value: string, problem: string) =>
  new QuireError('INVALID_REQUEST', `Invalid ${field} "${value.replace(CONTROL, '?')}": ${problem}.`, {
    field,
    problem,
  });

/**
 * Checks an asset or folder path as text (after the one URL decoding the router already did) and
 * splits it into segments. Refuses rather than repairs: `..`, `.`, empty segments, backslashes,
 * control characters (NUL), a percent escape left after decoding (double encoding), an absolute or
 * drive path, and hidden names (the manifest and the temp folder are hidden). A folder may start
 * with one `/`, meaning the assets root; `''` or `/` is the root itself (no segments). The same
 * holds for the path's NFKC form.
 */
export function parseAssetPath(input: string, field: string, options: { folder: boolean }): string[] {
  // Compatibility characters (‥, ．, ／, ＼) fold to `..`, `.`, `/` and `\` under NFKC, as some tools
  // and file systems fold them: a path must be as harmless folded as it is written.
  const folded = input.normalize('NFKC');
  if (folded !== input) {
    try {
      checkedSegments(folded, field, options);
    } catch (error) {
      if (error instanceof QuireError)
        throw invalid(
          field,
          input,
          `${(error.details as { problem: string }).problem} (once its compatibility characters are folded, as NFKC does)`,
        );
      throw error;
    }
  }
  return checkedSegments(input, field, options);
}

function checkedSegments(input: string, field: string, options: { folder: boolean }): string[] {
  if (input.length > 1024) throw invalid(field, input.slice(0, 40), 'longer than 1024 characters');
  if (CONTROL.test(input)) throw invalid(field, input, 'control characters (such as NUL) are not allowed');
  if (input.includes('\\')) throw invalid(field, input, 'backslashes are not allowed; use /');
  if (PERCENT_ESCAPE.test(input))
    throw invalid(field, input, 'it still holds a percent escape after decoding (double encoding)');
  let rest = input;
  if (options.folder) {
    if (rest.startsWith('/')) rest = rest.slice(1);
    if (rest.endsWith('/')) rest = rest.slice(0, -1);
    if (rest === '') return [];
  }
  if (rest.startsWith('/') || DRIVE.test(rest))
    throw invalid(field, input, 'absolute paths are not allowed; paths are relative to the assets folder');
  const segments = rest.split('/');
  for (const segment of segments) {
    if (segment === '') throw invalid(field, input, 'empty path segment');
    if (segment === '.' || segment === '..') throw invalid(field, input, '"." and ".." segments are not allowed');
    if (segment.startsWith('.')) throw invalid(field, input, 'hidden names (starting with ".") are not assets');
  }
  if (!options.folder && segments.length === 0) throw invalid(field, input, 'empty path');
  return segments;
}

/** Whether a name found on disk can be addressed through the API (see parseAssetPath). */
export const isAddressableName = (name: string) =>
  !name.startsWith('.') && !CONTROL.test(name) && !name.includes('\\') && !PERCENT_ESCAPE.test(name);

const isInside = (root: string, candidate: string) => candidate === root || candidate.startsWith(root + path.sep);

/**
 * Resolves checked segments inside the assets folder, following symlinks: the real path of the
 * target (or, when it does not exist yet, of its deepest existing ancestor) must stay inside the
 * real assets folder, so a symlink never leads out of it.
 */
export function createPathGuard(root: string) {
  // Synchronous (the same native realpath as fs/promises): microseconds each, where two round trips
  // through the thread pool were most of what GET /assets/usage/:path took.
  const realpath = fsSync.realpathSync.native;
  function realRoot(): string | undefined {
    try {
      return realpath(root);
    } catch (error) {
      if (fsErrorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  return {
    root,
    /** The absolute path of `segments`; `real` is its real path when it exists. */
    async resolve(segments: string[], field: string): Promise<{ absolute: string; real?: string }> {
      const absolute = path.join(root, ...segments);
      const base = realRoot();
      if (base === undefined) return { absolute };
      let probe = absolute;
      for (;;) {
        try {
          const real = realpath(probe);
          if (!isInside(base, real))
            throw invalid(field, segments.join('/'), 'it leads outside the assets folder (through a symlink)');
          return probe === absolute ? { absolute, real } : { absolute };
        } catch (error) {
          if (error instanceof QuireError) throw error;
          const code = fsErrorCode(error);
          if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
          if (probe === root) return { absolute };
          probe = path.dirname(probe);
        }
      }
    },
  };
}

export type PathGuard = ReturnType<typeof createPathGuard>;
