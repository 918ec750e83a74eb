import { loadGit } from './isomorphic-git.js';
import { at, type GitRepo } from './repository.js';
import type { FileEntry } from './tree-entries.js';

/** The index entries of the given paths (absent ones are left out), reading only the folders on those paths. */
export async function readIndexEntries(repo: GitRepo, filepaths: string[]): Promise<Map<string, FileEntry>> {
  const git = await loadGit();
  const wanted = new Set(filepaths);
  const folders = new Set<string>();
  for (const filepath of filepaths) {
    for (let slash = filepath.indexOf('/'); slash > 0; slash = filepath.indexOf('/', slash + 1))
      folders.add(filepath.slice(0, slash));
  }
  const entries = new Map<string, FileEntry>();
  if (wanted.size === 0) return entries;
  await git.walk({
    ...at(repo),
    trees: [git.STAGE()],
    map: async (filepath, [entry]) => {
      if (filepath === '.' || folders.has(filepath)) return true;
      if (wanted.has(filepath) && entry && (await entry.type()) !== 'tree') {
        entries.set(filepath, { oid: await entry.oid(), mode: (await entry.mode()).toString(8) });
      }
      // Prune everything else.
      return null;
    },
  });
  return entries;
}
