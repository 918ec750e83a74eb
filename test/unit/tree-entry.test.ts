import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTreeEntry } from '../../src/git/file-versions.js';

describe('findTreeEntry', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'quire-tree-'));
    await git.init({ fs, dir });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds each entry of a real tree as isomorphic-git parses it, and nothing that is not one', async () => {
    const blob = (text: string) => git.writeBlob({ fs, dir, blob: new TextEncoder().encode(text) });
    const sub = await git.writeTree({
      fs,
      dir,
      tree: [{ mode: '100644', path: 'a.json', oid: await blob('a'), type: 'blob' }],
    });
    const entries = [
      { mode: '100644', path: 'page.en.json', oid: await blob('en'), type: 'blob' as const },
      { mode: '100644', path: 'page.en.json.bak', oid: await blob('bak'), type: 'blob' as const },
      { mode: '100755', path: 'run.sh', oid: await blob('#!'), type: 'blob' as const },
      { mode: '120000', path: 'link', oid: await blob('target'), type: 'blob' as const },
      { mode: '040000', path: 'pages', oid: sub, type: 'tree' as const },
      // Many more, so the wanted ones sit between others.
      ...(await Promise.all(
        Array.from({ length: 300 }, async (_, n) => ({
          mode: '100644',
          path: `item-${n}.de.json`,
          oid: await blob(`de ${n}`),
          type: 'blob' as const,
        })),
      )),
    ];
    const tree = await git.writeTree({ fs, dir, tree: entries });
    const { object } = await git.readObject({ fs, dir, oid: tree, format: 'content' });
    const { tree: parsed } = await git.readTree({ fs, dir, oid: tree });
    for (const entry of parsed) {
      expect(findTreeEntry(object as Uint8Array, entry.path)).toEqual({ oid: entry.oid, type: entry.type });
    }
    for (const missing of ['page.en', 'page', 'item-300.de.json', 'pages/a.json', ''])
      expect(findTreeEntry(object as Uint8Array, missing)).toBeNull();
  });
});
