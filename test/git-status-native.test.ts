import { mkdir, mkdtemp, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli } from './support/git-cli.js';
import { type GitServer, startGitServer } from './support/git-server.js';
import { type ApiClient, api } from './support/http.js';
import { png } from './support/images.js';
import { createSite, type RunningSite } from './support/site.js';

// The working-tree status (kept in a worker thread from one walk and a folder watcher) against
// native `git status`, after a seeded random run of API writes, deletes, uploads, hand edits,
// moves and deletes on disk, folders made, renamed and removed by hand, .gitignore edits, a commit
// through the API and a pull of another editor's push.

const TOKEN = 'status-token';
const STEPS = 60;
const COMMIT_AT = 12;
const PULL_AT = 36;

/** A linear congruential generator: the same run every time, so a failing step can be replayed. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const dataFile = (name: string, data: Record<string, unknown>) =>
  `${JSON.stringify({ type: 'json', name, meta: { title: name }, content: { data } }, null, 2)}\n`;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('.quire'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('GET /git/status against native git status (production)', () => {
  let scratch: string;
  let gitServer: GitServer;
  let server: RunningSite;
  let client: ApiClient;
  let repo: string;
  let other: string;
  const git = (...args: string[]) => gitCli(repo, args);

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'quire-status-'));
    const remotes = path.join(scratch, 'remotes');
    await mkdir(remotes);
    gitServer = await startGitServer({ root: remotes, token: TOKEN });
    await gitCli(remotes, ['init', '-q', '--bare', '-b', 'main', 'site.git']);
    const remoteUrl = gitServer.repoUrl('site.git');
    repo = path.join(scratch, 'repo');
    await mkdir(path.join(repo, 'content', 'data', 'facts'), { recursive: true });
    await mkdir(path.join(repo, 'media'), { recursive: true });
    await writeFile(path.join(repo, 'content', 'sites.json'), JSON.stringify({ sites: {}, globalLocales: ['en'] }));
    for (let n = 0; n < 6; n++)
      await writeFile(path.join(repo, 'content', 'data', 'facts', `seed-${n}.en.json`), dataFile(`seed-${n}`, { n }));
    await writeFile(path.join(repo, 'media', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    await writeFile(path.join(repo, 'README.md'), '# outside the content root\n');
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'start');
    await git('remote', 'add', 'origin', remoteUrl);
    await git('push', '-q', remoteUrl.replace('http://', `http://x:${TOKEN}@`), 'main');
    await git('fetch', '-q', remoteUrl.replace('http://', `http://x:${TOKEN}@`), 'main:refs/remotes/origin/main');
    other = path.join(scratch, 'other');
    await gitCli(scratch, ['clone', '-q', remoteUrl.replace('http://', `http://x:${TOKEN}@`), 'other']);

    const site = await createSite({
      name: 'git-status-native',
      config: `{
        contentRoot: ${JSON.stringify(path.join(repo, 'content'))},
        assets: { dir: ${JSON.stringify(path.join(repo, 'media'))} },
        requireIdentity: false,
      }`,
    });
    server = await site.buildAndStart({ GIT_TOKEN: TOKEN, GIT_BRANCH: undefined, CONTENT_PATH: undefined });
    client = api(server.url);
  });

  afterAll(async () => {
    await server?.stop();
    await gitServer?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** Native git's changed files under the content root and the assets dir, untracked ones one by one. */
  async function native(): Promise<string[]> {
    const out = await git('status', '--porcelain', '-uall', '--no-renames', '--', 'content', 'media');
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3))
      .sort();
  }

  async function quireFiles(): Promise<string[]> {
    const response = await client.get('/git/status');
    expect(response.status, response.text).toBe(200);
    const files = (response.json.files as Array<{ path: string }>).map((file) => file.path).sort();
    expect(response.json.changedFiles).toBe(files.length);
    return files;
  }

  it('counts what native git counts after every step of a random run', async () => {
    const rand = seeded(19);
    const pick = <T>(list: T[]): T | undefined => list[Math.floor(rand() * list.length)];
    const created: string[] = [];
    const folders: string[] = [];
    const log: string[] = [];
    const counts: number[] = [];
    let counter = 0;

    const operations: Record<string, () => Promise<void>> = {
      async create() {
        const response = await client.post('/content', {
          body: {
            kind: 'data',
            collection: 'facts',
            type: 'json',
            name: `fact-${++counter}`,
            locales: { en: { content: { data: { counter } } } },
          },
        });
        expect(response.status, response.text).toBe(201);
        created.push(response.json.id);
      },
      async update() {
        const id = pick(created);
        if (!id) return;
        const response = await client.put(`/content/${id}`, {
          query: { locale: 'en' },
          body: { content: { data: { changed: ++counter } } },
        });
        expect([200, 404], response.text).toContain(response.status);
      },
      async remove() {
        const id = pick(created);
        if (!id) return;
        created.splice(created.indexOf(id), 1);
        const read = await client.get(`/content/${id}/en`);
        if (read.status !== 200) return;
        const response = await client.delete(`/content/${id}`, { headers: { 'if-match': read.json.localized.etag } });
        expect(response.status, response.text).toBe(200);
      },
      async upload() {
        const data = new FormData();
        const [r, g, b] = [rand(), rand(), rand()].map((x) => Math.floor(x * 255)) as [number, number, number];
        data.append('file', new Blob([new Uint8Array(png(3, 2, { rgb: [r, g, b] }))]), `shot-${++counter}.png`);
        const response = await client.post('/assets/upload', { rawBody: data });
        expect(response.status, response.text).toBe(201);
      },
      async handWrite() {
        const name = `hand-${++counter}`;
        await mkdir(path.join(repo, 'content', 'data', 'facts'), { recursive: true });
        await writeFile(path.join(repo, 'content', 'data', 'facts', `${name}.en.json`), dataFile(name, { counter }));
      },
      async handEdit() {
        const file = pick(await filesUnder(path.join(repo, 'content', 'data')));
        if (file) await writeFile(file, dataFile(path.basename(file, '.en.json'), { edited: ++counter }));
      },
      async handDelete() {
        const file = pick([
          ...(await filesUnder(path.join(repo, 'content', 'data'))),
          ...(await filesUnder(path.join(repo, 'media'))),
        ]);
        if (file) await unlink(file);
      },
      async move() {
        const file = pick([
          ...(await filesUnder(path.join(repo, 'content', 'data'))),
          ...(await filesUnder(path.join(repo, 'media'))),
        ]);
        if (!file) return;
        const target = path.join(path.dirname(file), `moved-${++counter}-${path.basename(file)}`);
        await rename(file, target);
      },
      async handFolder() {
        const folder = path.join(repo, 'content', 'data', `hand-folder-${++counter}`);
        await mkdir(folder);
        for (const n of [1, 2]) await writeFile(path.join(folder, `f${n}.en.json`), dataFile(`f${n}`, { counter }));
        folders.push(folder);
      },
      async renameFolder() {
        const folder = pick(folders);
        if (!folder) return;
        const target = path.join(path.dirname(folder), `renamed-${++counter}`);
        await rename(folder, target);
        folders.splice(folders.indexOf(folder), 1, target);
      },
      async removeFolder() {
        const folder = pick([...folders, path.join(repo, 'content', 'data', 'facts')]);
        if (!folder) return;
        if (folders.includes(folder)) folders.splice(folders.indexOf(folder), 1);
        await rm(folder, { recursive: true, force: true });
      },
      async ignore() {
        // A .gitignore that hides some untracked files (and so changes answers for paths nobody touched).
        await writeFile(path.join(repo, 'content', '.gitignore'), rand() < 0.5 ? 'hand-*\n' : '*.tmp\n');
        await writeFile(path.join(repo, 'content', 'data', `scratch-${++counter}.tmp`), 'scratch\n');
      },
      async rewriteSame() {
        const file = pick(await filesUnder(path.join(repo, 'content', 'data')));
        if (!file) return;
        await writeFile(file, await readFile(file));
      },
    };
    const names = Object.keys(operations);

    for (let step = 0; step < STEPS; step++) {
      let name: string;
      if (step === COMMIT_AT) {
        name = 'commit';
        const response = await client.post('/git/commit', { body: { message: 'from the API' } });
        expect(response.status, response.text).toBe(200);
      } else if (step === PULL_AT) {
        name = 'pull';
        await gitCli(other, ['pull', '-q', '--rebase']);
        await mkdir(path.join(other, 'content', 'data', 'pulled'), { recursive: true });
        await writeFile(
          path.join(other, 'content', 'data', 'pulled', 'from-other.en.json'),
          dataFile('from-other', {}),
        );
        await writeFile(path.join(other, 'media', 'other.svg'), '<svg xmlns="http://www.w3.org/2000/svg" id="o"/>\n');
        await gitCli(other, ['add', '-A']);
        await gitCli(other, ['commit', '-q', '-m', 'other']);
        await gitCli(other, ['push', '-q', 'origin', 'main']);
        const response = await client.post('/git/pull');
        expect(response.status, response.text).toBe(200);
      } else {
        name = pick(names)!;
        await operations[name]!();
      }
      log.push(name);
      const expected = await native();
      expect(await quireFiles(), `after ${log.join(', ')}`).toEqual(expected);
      counts.push(expected.length);
    }
    // The run went through clean and dirty trees: the commit left fewer changes than before it.
    expect(counts[COMMIT_AT]).toBeLessThan(counts[COMMIT_AT - 1]!);
    expect(new Set(counts).size).toBeGreaterThan(4);
    for (const operation of ['upload', 'move', 'handFolder', 'renameFolder', 'removeFolder', 'ignore'])
      expect(log).toContain(operation);
  }, 300_000);
});
