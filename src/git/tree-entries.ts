import { loadGit } from './isomorphic-git.js';
import { at, type GitRepo } from './repository.js';

/** A file as a tree records it: a blob (or a submodule's commit) and its mode ('100644', '100755', '120000', '160000'). */
export interface FileEntry {
  oid: string;
  mode: string;
}

export interface TreeItem extends FileEntry {
  type: 'blob' | 'tree' | 'commit';
}

/** The entries of one tree object by name; an absent tree has none. */
export async function readTreeItems(repo: GitRepo, oid: string | null): Promise<Map<string, TreeItem>> {
  const git = await loadGit();
  if (!oid) return new Map();
  const { tree } = await git.readTree({ ...at(repo), oid });
  return new Map(tree.map((entry) => [entry.path, { oid: entry.oid, mode: entry.mode, type: entry.type }]));
}

export const sameEntry = (a: FileEntry | null, b: FileEntry | null) =>
  a === b || (a !== null && b !== null && a.oid === b.oid && a.mode === b.mode);

/** 'a/b/c.json' → { parent: 'a/b', name: 'c.json' }; the root folder is ''. */
export function splitPath(filepath: string): { parent: string; name: string } {
  const slash = filepath.lastIndexOf('/');
  return slash < 0
    ? { parent: '', name: filepath }
    : { parent: filepath.slice(0, slash), name: filepath.slice(slash + 1) };
}
