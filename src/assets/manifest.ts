import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { fsErrorCode, QuireError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { signatureOf } from '../util/file-signature.js';
import { AssetRecordSchema } from './record-schema.js';
import type { AssetRecord } from './types.js';

/** One manifest per folder, beside the files it describes; hidden, so it is never listed as an asset. */
export const MANIFEST_NAME = '.quire-assets.json';

const KEY_ORDER: Array<keyof AssetRecord> = [
  'originalName',
  'mimeType',
  'size',
  'width',
  'height',
  'alt',
  'tags',
  'uploadedAt',
  'uploadedBy',
];

export type Records = Map<string, AssetRecord>;

interface Cached {
  signature: string;
  records: Records;
  problem?: string;
}

/** `{ "<filename>": { ...record } }`, filenames sorted and keys in a fixed order, so git diffs stay small. */
function serialize(records: Records): string {
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of [...records.keys()].sort()) {
    const record = records.get(name)!;
    const ordered: Record<string, unknown> = {};
    for (const key of KEY_ORDER) if (record[key] !== undefined) ordered[key] = record[key];
    out[name] = ordered;
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

function parse(text: string, file: string): { records: Records; problem?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      records: new Map(),
      problem: `${file} is not valid JSON (${(error as Error).message}); a merge conflict? Fix it by hand.`,
    };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { records: new Map(), problem: `${file} must hold an object of filename → metadata.` };
  }
  const records: Records = new Map();
  for (const [name, value] of Object.entries(raw)) {
    const parsed = v.safeParse(AssetRecordSchema, value);
    if (parsed.success) records.set(name, parsed.output);
    else console.warn(`[astro-quire] ${file}: ignoring the metadata of "${name}": ${parsed.issues[0].message}`);
  }
  return { records };
}

/**
 * Reads and writes folder manifests. Reads are cached per folder and re-read when the file's lstat
 * signature changes (a git pull, an edit by hand); writes are atomic (temporary file, then rename).
 * Callers serialize writes per folder: this module only keeps the cache honest.
 */
export function createManifests() {
  const cache = new Map<string, Cached>();

  async function load(folder: string): Promise<Cached> {
    const file = path.join(folder, MANIFEST_NAME);
    let stat: Stats;
    try {
      stat = await fs.lstat(file);
    } catch (error) {
      if (fsErrorCode(error) !== 'ENOENT' && fsErrorCode(error) !== 'ENOTDIR') throw error;
      cache.delete(folder);
      return { signature: '', records: new Map() };
    }
    if (!stat.isFile()) {
      // A symlink (or anything but a file) is not this folder's manifest: never read through it; a write replaces it.
      cache.delete(folder);
      return { signature: '', records: new Map() };
    }
    const signature = signatureOf(stat);
    const cached = cache.get(folder);
    if (cached?.signature === signature) return cached;
    const loaded: Cached = { signature, ...parse(await fs.readFile(file, 'utf8'), file) };
    if (loaded.problem) console.warn(`[astro-quire] ${loaded.problem}`);
    cache.set(folder, loaded);
    return loaded;
  }

  return {
    /** The folder's records (a copy the caller may change); a broken manifest reads as empty. */
    async read(folder: string): Promise<Records> {
      return new Map((await load(folder)).records);
    },

    /** Like `read`, but refuses a broken manifest rather than let a write overwrite what it held. */
    async readForUpdate(folder: string): Promise<Records> {
      const loaded = await load(folder);
      if (loaded.problem)
        throw new QuireError('INTERNAL_ERROR', loaded.problem, { file: path.join(folder, MANIFEST_NAME) });
      return new Map(loaded.records);
    },

    async write(folder: string, records: Records): Promise<void> {
      const file = path.join(folder, MANIFEST_NAME);
      try {
        await writeFileAtomic(file, serialize(records));
        cache.set(folder, { signature: signatureOf(await fs.lstat(file)), records: new Map(records) });
      } catch (error) {
        cache.delete(folder);
        throw new QuireError(
          'WRITE_ERROR',
          `Could not write ${file}: ${(error as Error).message}`,
          { file },
          { cause: error },
        );
      }
    },
  };
}

export type Manifests = ReturnType<typeof createManifests>;
