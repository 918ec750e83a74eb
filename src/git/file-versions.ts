import type { ReadCommitResult } from 'isomorphic-git';
import { loadGit } from './isomorphic-git.js';
import { at, type GitRepo } from './repository.js';

/** One version of a file in history: its blob, and the oldest commit of the run of commits that hold it. */
export interface FileVersion {
  blob: string;
  commit: string;
  /** Committer time, ISO 8601. */
  date: string;
  /** Repository-relative POSIX path the file had at that commit (it may have moved since). */
  filepath: string;
}

interface TreeEntry {
  oid: string;
  type: string;
}

/** How many commits from HEAD a walk reads at most: history beyond is not searched. */
export const MAX_COMMITS_WALKED = 5000;

/**
 * The first-parent line from `head`, newest first. Commits are read in batches of growing size
 * with `git.log` (much faster per commit than reading them one by one), so a walk that stops
 * early reads little. A shallow boundary ends it.
 */
async function* firstParents(repo: GitRepo, head: string) {
  const git = await loadGit();
  let next: string | undefined = head;
  let depth = 16;
  while (next) {
    let batch: Awaited<ReturnType<typeof git.log>>;
    try {
      batch = await git.log({ ...at(repo), ref: next, depth });
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFoundError') return;
      throw error;
    }
    const commits = new Map(batch.map((entry) => [entry.oid, entry.commit]));
    if (!commits.has(next)) return;
    while (next && commits.has(next)) {
      const commit: ReadCommitResult['commit'] = commits.get(next)!;
      yield { oid: next, commit };
      next = commit.parent[0];
    }
    depth = Math.min(depth * 2, 1024);
  }
}

/**
 * The entry `name` of a tree object's content (`<mode> <name>\0<20-byte id>` after one another),
 * read in place: no object per entry, so a folder of tens of thousands of files costs one scan.
 */
export function findTreeEntry(content: Uint8Array, name: string): TreeEntry | null {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const wanted = Buffer.from(name);
  let start = 0;
  while (start < bytes.length) {
    const space = bytes.indexOf(0x20, start);
    const end = space < 0 ? -1 : bytes.indexOf(0, space + 1);
    if (end < 0) break;
    if (end - space - 1 === wanted.length && bytes.compare(wanted, 0, wanted.length, space + 1, end) === 0) {
      const mode = bytes.toString('latin1', start, space);
      const type = mode === '40000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
      return { oid: bytes.toString('hex', end + 1, end + 21), type };
    }
    start = end + 21;
  }
  return null;
}

/** How deep below the content root a moved file is looked for (`pages/<site>/<collection>/<file>`). */
const MOVE_SEARCH_DEPTH = 4;

/**
 * Reads the versions of one file newest first by walking history back from HEAD and comparing
 * the file's blob at each commit, so a commit that touched the file starts a new version. Where the file is absent at its path, it is looked for by name in the rest of the
 * content folder at that commit (a moved item keeps its file name); where it is nowhere, the item
 * did not exist yet (or was deleted and re-created) and the walk ends, so it never searches the
 * whole history of a large repository. Trees are read once per oid and shared between walks.
 */
export function createFileHistory() {
  const trees = new Map<string, Map<string, TreeEntry>>();
  /** Entries of the trees kept: a collection folder of 100k items has ~75k, and a walk meets hundreds of its versions. */
  let keptEntries = 0;
  const looked = new Map<string, TreeEntry | null>();
  const found = new Map<string, string | null>();
  const MAX_TREES = 100_000;
  const MAX_KEPT_ENTRIES = 1_000_000;

  async function entriesOf(repo: GitRepo, oid: string): Promise<Map<string, TreeEntry>> {
    const git = await loadGit();
    let entries = trees.get(oid);
    if (!entries) {
      const { tree } = await git.readTree({ ...at(repo), oid });
      entries = new Map(tree.map((entry) => [entry.path, { oid: entry.oid, type: entry.type }]));
      if (trees.size >= MAX_TREES || keptEntries + entries.size > MAX_KEPT_ENTRIES) {
        trees.clear();
        keptEntries = 0;
      }
      trees.set(oid, entries);
      keptEntries += entries.size;
    }
    return entries;
  }

  /** One entry of a tree, found in the tree's bytes without parsing the rest (a path lookup needs one name per folder). */
  async function lookup(repo: GitRepo, tree: string, name: string): Promise<TreeEntry | null> {
    const git = await loadGit();
    const parsed = trees.get(tree);
    if (parsed) return parsed.get(name) ?? null;
    const key = `${tree}\0${name}`;
    let entry = looked.get(key);
    if (entry === undefined) {
      const { object } = await git.readObject({ ...at(repo), oid: tree, format: 'content' });
      entry = findTreeEntry(object as Uint8Array, name);
      if (looked.size >= MAX_TREES) looked.clear();
      looked.set(key, entry);
    }
    return entry;
  }

  async function entryAt(repo: GitRepo, root: string, filepath: string): Promise<TreeEntry | null> {
    let entry: TreeEntry | null = { oid: root, type: 'tree' };
    for (const name of filepath.split('/')) {
      if (entry.type !== 'tree') return null;
      entry = await lookup(repo, entry.oid, name);
      if (!entry) return null;
    }
    return entry;
  }

  /** The path of a blob named `name` below `folder` at this tree, breadth first (the first found wins). */
  async function search(repo: GitRepo, root: string, folder: string, name: string): Promise<string | null> {
    const key = `${root}\0${folder}\0${name}`;
    if (found.has(key)) return found.get(key)!;
    if (found.size >= MAX_TREES) found.clear();
    const start = folder === '.' ? { oid: root, type: 'tree' } : await entryAt(repo, root, folder);
    let level: Array<{ path: string; oid: string }> = start?.type === 'tree' ? [{ path: '', oid: start.oid }] : [];
    let result: string | null = null;
    for (let depth = 0; depth < MOVE_SEARCH_DEPTH && level.length > 0 && result === null; depth++) {
      const next: Array<{ path: string; oid: string }> = [];
      for (const tree of level) {
        for (const [entryName, entry] of await entriesOf(repo, tree.oid)) {
          const entryPath = tree.path ? `${tree.path}/${entryName}` : entryName;
          if (entry.type === 'blob' && entryName === name) result ??= entryPath;
          else if (entry.type === 'tree' && !entryName.startsWith('.')) next.push({ path: entryPath, oid: entry.oid });
        }
      }
      level = next;
    }
    if (result !== null && folder !== '.') result = `${folder}/${result}`;
    found.set(key, result);
    return result;
  }

  return {
    /**
     * The versions of `filepath` (repository-relative) from `head` back, newest first, read lazily:
     * each step reads commits only until the next version is complete, so a match near the top
     * of a long history costs a few commits. The walk follows first parents (the line Quire's own
     * commits and rebasing pulls make) for at most `MAX_COMMITS_WALKED` commits. `folder` bounds
     * where a moved file is looked for. A shallow boundary ends the walk; other errors are the caller's.
     */
    async *versions(repo: GitRepo, head: string, filepath: string, folder: string): AsyncGenerator<FileVersion> {
      const name = filepath.slice(filepath.lastIndexOf('/') + 1);
      let current = filepath;
      let pending: FileVersion | undefined;
      let walked = 0;
      for await (const { oid, commit } of firstParents(repo, head)) {
        if (++walked > MAX_COMMITS_WALKED) break;
        let entry = await entryAt(repo, commit.tree, current);
        if (entry?.type !== 'blob') {
          const moved = await search(repo, commit.tree, folder, name);
          if (moved) {
            current = moved;
            entry = await entryAt(repo, commit.tree, current);
          }
        }
        if (entry?.type !== 'blob') break;
        const date = new Date(commit.committer.timestamp * 1000).toISOString();
        if (pending?.blob === entry.oid) {
          Object.assign(pending, { commit: oid, date, filepath: current });
        } else {
          if (pending) yield pending;
          pending = { blob: entry.oid, commit: oid, date, filepath: current };
        }
      }
      if (pending) yield pending;
    },

    /** The file's bytes at a version. */
    async read(repo: GitRepo, blob: string): Promise<Uint8Array> {
      const git = await loadGit();
      return (await git.readBlob({ ...at(repo), oid: blob })).blob;
    },
  };
}

export type FileHistory = ReturnType<typeof createFileHistory>;
