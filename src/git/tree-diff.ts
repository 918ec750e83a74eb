import type { GitRepo } from './repository.js';
import { type FileEntry, readTreeItems, type TreeItem } from './tree-entries.js';

/** One file that differs between two trees; `null` on a side where it does not exist. */
export interface FileChange {
  path: string;
  before: FileEntry | null;
  after: FileEntry | null;
}

const asFile = (item: TreeItem | undefined): FileEntry | null =>
  item && item.type !== 'tree' ? { oid: item.oid, mode: item.mode } : null;
const asTree = (item: TreeItem | undefined): string | null => (item?.type === 'tree' ? item.oid : null);

/**
 * The files that differ between two trees (either may be absent). Only subtrees whose ids differ
 * are read, so the cost follows the size of the change, not of the repository.
 */
export async function diffTrees(
  repo: GitRepo,
  before: string | null,
  after: string | null,
  prefix = '',
): Promise<FileChange[]> {
  if (before === after) return [];
  const [left, right] = await Promise.all([readTreeItems(repo, before), readTreeItems(repo, after)]);
  const changes: FileChange[] = [];
  for (const name of [...new Set([...left.keys(), ...right.keys()])].sort()) {
    const l = left.get(name);
    const r = right.get(name);
    if (l && r && l.oid === r.oid && l.mode === r.mode) continue;
    const filepath = prefix ? `${prefix}/${name}` : name;
    const [lTree, rTree] = [asTree(l), asTree(r)];
    if (lTree !== null || rTree !== null) changes.push(...(await diffTrees(repo, lTree, rTree, filepath)));
    const [lFile, rFile] = [asFile(l), asFile(r)];
    if (lFile || rFile) changes.push({ path: filepath, before: lFile, after: rFile });
  }
  return changes;
}
