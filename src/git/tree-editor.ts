import { loadGit } from './isomorphic-git.js';
import type { GitRepo } from './repository.js';
import { type FileEntry, readTreeItems, splitPath, type TreeItem } from './tree-entries.js';

const NEW_FOLDER = '';

/**
 * Edits a tree in memory, file by file, loading only the folders on the edited paths; `write()`
 * stores the changed folders bottom-up and returns the new root tree. Nothing touches the index
 * or the working tree, so a replay that turns out to conflict leaves no trace but loose objects.
 */
export class TreeEditor {
  readonly #repo: GitRepo;
  readonly #folders = new Map<string, Map<string, TreeItem>>();
  readonly #dirty = new Set<string>();
  #root: string | null;

  constructor(repo: GitRepo, root: string | null) {
    this.#repo = repo;
    this.#root = root;
  }

  async get(filepath: string): Promise<FileEntry | null> {
    const { parent, name } = splitPath(filepath);
    const item = (await this.#folder(parent, false))?.get(name);
    return item && item.type !== 'tree' ? { oid: item.oid, mode: item.mode } : null;
  }

  /** Sets a file, or removes it with `null`. Throws when a file stands where a folder is needed. */
  async set(filepath: string, entry: FileEntry | null): Promise<void> {
    const { parent, name } = splitPath(filepath);
    const folder = await this.#folder(parent, entry !== null);
    if (!folder) return;
    if (folder.get(name)?.type === 'tree')
      throw new Error(`${filepath} is a folder in one tree and a file in the other`);
    if (entry) folder.set(name, { ...entry, type: entry.mode === '160000' ? 'commit' : 'blob' });
    else folder.delete(name);
    this.#markDirty(parent);
  }

  async write(): Promise<string> {
    const deepestFirst = [...this.#dirty].sort((a, b) => depth(b) - depth(a));
    for (const folderPath of deepestFirst) {
      const items = this.#folders.get(folderPath)!;
      const oid = items.size > 0 || folderPath === '' ? await this.#writeTree(items) : null;
      if (folderPath === '') {
        this.#root = oid;
        continue;
      }
      const { parent, name } = splitPath(folderPath);
      const parentItems = this.#folders.get(parent)!;
      // Git keeps no empty folders.
      if (oid) parentItems.set(name, { oid, mode: '040000', type: 'tree' });
      else parentItems.delete(name);
    }
    this.#dirty.clear();
    if (this.#root === null) this.#root = await this.#writeTree(new Map());
    return this.#root;
  }

  async #writeTree(items: Map<string, TreeItem>): Promise<string> {
    const tree = [...items].map(([path, item]) => ({ path, mode: item.mode, oid: item.oid, type: item.type }));
    return (await loadGit()).writeTree({ fs: this.#repo.fs, gitdir: this.#repo.gitdir, tree });
  }

  #markDirty(folderPath: string) {
    for (let current = folderPath; ; current = splitPath(current).parent) {
      this.#dirty.add(current);
      if (current === '') return;
    }
  }

  /** The items of a folder ('' = root); with `create`, a missing folder is made. */
  async #folder(folderPath: string, create: boolean): Promise<Map<string, TreeItem> | null> {
    const loaded = this.#folders.get(folderPath);
    if (loaded) return loaded;
    let oid: string | null = this.#root;
    if (folderPath !== '') {
      const { parent, name } = splitPath(folderPath);
      const parentItems = await this.#folder(parent, create);
      if (!parentItems) return null;
      const item = parentItems.get(name);
      if (item && item.type !== 'tree') {
        if (create) throw new Error(`${folderPath} is a file in one tree and a folder in the other`);
        return null;
      }
      if (!item) {
        if (!create) return null;
        parentItems.set(name, { oid: NEW_FOLDER, mode: '040000', type: 'tree' });
        this.#markDirty(parent);
      }
      oid = item?.oid ?? null;
    }
    const items = await readTreeItems(this.#repo, oid);
    this.#folders.set(folderPath, items);
    return items;
  }
}

const depth = (folderPath: string) => (folderPath === '' ? 0 : folderPath.split('/').length);
