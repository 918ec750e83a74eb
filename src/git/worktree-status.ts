import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadGit } from './isomorphic-git.js';
import { at, type GitRepo, inScope, resolveOrNull, treeOf } from './repository.js';

/** A path under the scopes whose working file differs from HEAD. */
export interface ChangedFile {
  path: string;
  change: 'added' | 'modified' | 'deleted';
}

interface IndexEntry {
  oid: string;
  mtimeSeconds: number;
  mtimeMs: number;
  size: number;
  ino: number;
}

// Both change rarely between two status calls: parsed once and kept while their source is unchanged.
let headCache: { tree: string; scopes: string; files: Map<string, string> } | null = null;
let indexCache: (IndexSnapshot & { key: string }) | null = null;

const NO_HEAD = new Map<string, string>();

/** HEAD's files under the scopes: path → blob id (the same map while HEAD's tree and the scopes are unchanged). */
export async function headFiles(repo: GitRepo): Promise<ReadonlyMap<string, string>> {
  const git = await loadGit();
  const tree = await treeOf(repo, await resolveOrNull(repo, 'HEAD'));
  if (!tree) return NO_HEAD;
  const scopes = repo.scopes.join('\0');
  if (headCache?.tree === tree && headCache.scopes === scopes) return headCache.files;
  const files = new Map<string, string>();
  const visit = async (oid: string, prefix: string): Promise<void> => {
    const { tree: entries } = await git.readTree({ ...at(repo), oid });
    for (const entry of entries) {
      const filepath = prefix ? `${prefix}/${entry.path}` : entry.path;
      const onTheWay = repo.scopes.some((scope) => scope === '.' || scope.startsWith(`${filepath}/`));
      if (entry.type === 'tree' && (onTheWay || inScope(repo.scopes, filepath))) await visit(entry.oid, filepath);
      else if (entry.type === 'blob' && inScope(repo.scopes, filepath)) files.set(filepath, entry.oid);
    }
  };
  await visit(tree, '');
  headCache = { tree, scopes, files };
  return files;
}

/** The index as read: its entries (null for a format this reader does not know: then every file is hashed) and when it was written. */
export interface IndexSnapshot {
  entries: Map<string, IndexEntry> | null;
  writtenSeconds: number;
}

const NO_INDEX: IndexSnapshot = { entries: new Map(), writtenSeconds: 0 };

/** The index (format 2 or 3; the same object while the file is unchanged); a damaged index throws. */
export function readIndex(repo: GitRepo): IndexSnapshot {
  const file = path.join(repo.gitdir, 'index');
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return NO_INDEX;
  const key = `${file}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  if (indexCache?.key !== key)
    indexCache = { key, entries: parseIndex(fs.readFileSync(file)), writtenSeconds: Math.floor(stat.mtimeMs / 1000) };
  return indexCache;
}

function parseIndex(data: Buffer): Map<string, IndexEntry> | null {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC')
    throw new Error('the index file (.git/index) is corrupt: run `git reset` in the repository to rebuild it');
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const count = data.readUInt32BE(8);
  const entries = new Map<string, IndexEntry>();
  let offset = 12;
  for (let n = 0; n < count; n++) {
    const start = offset;
    const mtimeSeconds = data.readUInt32BE(start + 8);
    const mtimeNanoseconds = data.readUInt32BE(start + 12);
    const ino = data.readUInt32BE(start + 20);
    const size = data.readUInt32BE(start + 36);
    const oid = data.toString('hex', start + 40, start + 60);
    const flags = data.readUInt16BE(start + 60);
    const extended = version === 3 && (flags & 0x4000) !== 0;
    const nameStart = start + 62 + (extended ? 2 : 0);
    const nameEnd = data.indexOf(0, nameStart);
    const name = data.toString('utf8', nameStart, nameEnd);
    // Entries are NUL-padded to a multiple of 8 bytes (at least one NUL).
    offset = start + Math.ceil((nameEnd - start + 1) / 8) * 8;
    if (((flags >> 12) & 0x3) === 0)
      entries.set(name, { oid, mtimeSeconds, mtimeMs: Math.floor(mtimeNanoseconds / 1e6), size, ino });
  }
  return entries;
}

/** The blob id the working file would have: the index's when its stat still matches (and it is not racily new), else hashed. */
export function workingOid(dir: string, filepath: string, index: IndexSnapshot): string {
  // Repository paths use "/", which Node accepts on every platform.
  const absolute = `${dir}/${filepath}`;
  const stat = fs.lstatSync(absolute);
  const entry = index.entries?.get(filepath);
  const mtimeSeconds = Math.floor(stat.mtimeMs / 1000);
  if (
    entry &&
    entry.size === stat.size &&
    entry.ino === stat.ino >>> 0 &&
    entry.mtimeSeconds === mtimeSeconds &&
    entry.mtimeMs === Math.floor(stat.mtimeMs % 1000) &&
    mtimeSeconds < index.writtenSeconds
  ) {
    return entry.oid;
  }
  const content = stat.isSymbolicLink() ? Buffer.from(fs.readlinkSync(absolute)) : fs.readFileSync(absolute);
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}
