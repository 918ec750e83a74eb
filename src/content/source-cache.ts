import fs from 'node:fs/promises';
import path from 'node:path';
import { fsErrorCode } from '../errors.js';
import { removeInterruptedWrites, writeFileAtomic } from '../util/atomic-write.js';
import type { ContentData, Meta } from './types.js';

/** Hidden (so the scan skips it) and git-ignored by its own `.gitignore`: it is a cache, safe to delete. */
export const SOURCE_CACHE_FOLDER = '.quire-source-cache';

/** How many replaced versions are kept; the oldest go first. */
const MAX_ENTRIES = 2000;
/** Pruning leaves this many, so that it does not run again at the very next write. */
const PRUNED_TO = 1800;

const ETAG = /^[\w-]{1,64}$/;

export interface CachedSource {
  meta: Meta;
  content: ContentData;
}

/**
 * The default locale's versions that were replaced before they reached a commit (edits in
 * `astro dev` between commits), by content etag, so that a translation reviewed against one of
 * them can still be shown what changed since. Failing to cache never fails the write it follows.
 */
export function createSourceCache(root: string) {
  const folder = path.join(root, SOURCE_CACHE_FOLDER);
  let prepared = false;
  let writesSincePrune = 0;
  // A process killed mid-write leaves a temporary file beside its target: swept at start, before any new write.
  const swept = fs
    .readdir(folder)
    .then((names) =>
      removeInterruptedWrites(
        names.map((name) => path.join(folder, name)),
        (target) => target.endsWith('.json'),
      ),
    )
    .catch(() => []);

  async function prepare() {
    await swept;
    if (prepared) return;
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, '.gitignore'), '*\n', { flag: 'wx' }).catch((error) => {
      if (fsErrorCode(error) !== 'EEXIST') throw error;
    });
    prepared = true;
  }

  async function prune() {
    const names = (await fs.readdir(folder)).filter((name) => name.endsWith('.json'));
    if (names.length <= MAX_ENTRIES) return;
    const dated = await Promise.all(
      names.map(async (name) => ({
        name,
        time: (await fs.stat(path.join(folder, name)).catch(() => null))?.mtimeMs ?? 0,
      })),
    );
    dated.sort((a, b) => a.time - b.time);
    for (const { name } of dated.slice(0, dated.length - PRUNED_TO))
      await fs.rm(path.join(folder, name), { force: true });
  }

  return {
    folder,

    /** Keeps a version that is being replaced; a version already kept is only touched (it stays longer). */
    async put(etag: string, source: CachedSource): Promise<void> {
      if (!ETAG.test(etag)) return;
      const file = path.join(folder, `${etag}.json`);
      try {
        await prepare();
        const now = new Date();
        const touched = await fs.utimes(file, now, now).then(
          () => true,
          () => false,
        );
        if (!touched) await writeFileAtomic(file, JSON.stringify(source));
        if (++writesSincePrune >= MAX_ENTRIES - PRUNED_TO) {
          writesSincePrune = 0;
          await prune();
        }
      } catch (error) {
        prepared = false;
        console.warn(`[astro-quire] could not keep a replaced version in ${folder}: ${(error as Error).message}`);
      }
    },

    /** The version with this content etag, if it was kept (and the file is still readable). */
    async get(etag: string): Promise<CachedSource | null> {
      if (!ETAG.test(etag)) return null;
      try {
        const parsed = JSON.parse(
          await fs.readFile(path.join(folder, `${etag}.json`), 'utf8'),
        ) as Partial<CachedSource>;
        if (typeof parsed !== 'object' || parsed === null || typeof parsed.content !== 'object') return null;
        return { meta: parsed.meta ?? {}, content: parsed.content ?? {} };
      } catch {
        return null;
      }
    },
  };
}

export type SourceCache = ReturnType<typeof createSourceCache>;
