import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';

/** Every file under `dir` (relative paths, hidden ones included); symlinks are listed, not followed. */
export async function filesUnder(dir: string, base = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full, base)));
    else out.push(path.relative(base, full));
  }
  return out.sort();
}

/**
 * Leftovers of an interrupted write: write-file-atomic's `<file>.<decimal hash>` beside a content
 * file or a manifest, and an upload's `.part` in the assets temp folder.
 */
export const isTempFile = (relative: string) => /\.(json|mdx)\.\d+$/.test(relative) || relative.endsWith('.part');

/** Parses every content file and asset manifest under the content root; returns what failed, with why. */
export async function unparseableFiles(contentRoot: string): Promise<string[]> {
  const problems: string[] = [];
  for (const relative of await filesUnder(contentRoot)) {
    const full = path.join(contentRoot, relative);
    if (!(await lstat(full)).isFile()) continue;
    const text = await readFile(full, 'utf8');
    try {
      if (relative.endsWith('.json')) {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          throw new Error('not a JSON object');
      } else if (relative.endsWith('.mdx')) {
        const match = /^---\r?\n([\s\S]*?)\r?\n?---(?:\r?\n|$)/.exec(text);
        if (!match) throw new Error('no front matter');
        const header: unknown = YAML.parse(match[1]!);
        if (typeof header !== 'object' || header === null) throw new Error('front matter is not a mapping');
      }
    } catch (error) {
      problems.push(`${relative}: ${(error as Error).message}`);
    }
  }
  return problems;
}
