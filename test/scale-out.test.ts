import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli } from './support/git-cli.js';
import { type GitServer, startGitServer } from './support/git-server.js';
import { type ApiClient, api } from './support/http.js';
import { idLike } from './support/ids.js';
import { createSite, type RunningSite } from './support/site.js';

// Issue 14: scale-out through git. Two production servers, each on its own clone of one
// token-protected remote (a real `git http-backend`), make pages without talking to each other;
// after commit, push and pull both serve the same items with the same etags. One built site,
// started twice with a different CONTENT_PATH (the built server reads it at run time).

const TOKEN = 'scale-out-token';
const SITES = {
  sites: { main: { locales: ['en'], defaultLocale: 'en' }, blog: { locales: ['en'], defaultLocale: 'en' } },
  globalLocales: ['en'],
};

let scratch: string;
let gitServer: GitServer;
const servers: Record<'a' | 'b', { server?: RunningSite; client?: ApiClient; clone: string }> = {
  a: { clone: '' },
  b: { clone: '' },
};

const client = (name: 'a' | 'b') => servers[name].client!;
const logs = (name: 'a' | 'b') => servers[name].server!.logs();

async function createPage(name: 'a' | 'b', site: string, pathname: string, collection = 'pages') {
  const response = await client(name).post('/content', {
    body: {
      kind: 'page',
      site,
      collection,
      type: 'visual',
      locales: { en: { pathname, meta: { title: `${pathname} on ${name}` }, content: { visualData: { from: name } } } },
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.json.id as string;
}

async function sync(name: 'a' | 'b', step: 'commit' | 'push' | 'pull') {
  const response = await client(name).post(`/git/${step}`, {
    body: step === 'commit' ? { message: `Pages from ${name}` } : {},
  });
  expect(response.status, `${name} ${step}: ${response.text}`).toBe(200);
  return response.json;
}

/** Everything a server lists, as JSON: items, locales, etags, timestamps. */
const everything = async (name: 'a' | 'b') => (await client(name).get('/content')).json;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'quire-scale-out-'));
  const remotes = path.join(scratch, 'remotes');
  await mkdir(remotes);
  gitServer = await startGitServer({ root: remotes, token: TOKEN });
  await gitCli(remotes, ['init', '-q', '--bare', '-b', 'main', 'content.git']);
  const remoteUrl = gitServer.repoUrl('content.git');
  const withToken = remoteUrl.replace('http://', `http://x-access-token:${TOKEN}@`);

  const seed = path.join(scratch, 'seed');
  await mkdir(path.join(seed, 'content'), { recursive: true });
  await writeFile(path.join(seed, 'content', 'sites.json'), `${JSON.stringify(SITES, null, 2)}\n`);
  await gitCli(seed, ['init', '-q', '-b', 'main']);
  await gitCli(seed, ['add', '-A']);
  await gitCli(seed, ['commit', '-q', '-m', 'Sites']);
  await gitCli(seed, ['push', '-q', withToken, 'main']);

  for (const name of ['a', 'b'] as const) {
    const clone = path.join(scratch, name);
    await gitCli(scratch, ['clone', '-q', withToken, name]);
    // The server pushes and pulls with GIT_TOKEN, not with credentials in the URL.
    await gitCli(clone, ['remote', 'set-url', 'origin', remoteUrl]);
    servers[name].clone = clone;
  }

  const site = await createSite({ name: 'scale-out', config: '{ requireIdentity: false }' });
  const env = (name: 'a' | 'b') => ({
    CONTENT_PATH: path.join(servers[name].clone, 'content'),
    GIT_TOKEN: TOKEN,
    GIT_USERNAME: undefined,
    GIT_BRANCH: undefined,
  });
  servers.a.server = await site.buildAndStart(env('a'));
  servers.b.server = await site.startBuilt(env('b'));
  for (const name of ['a', 'b'] as const) servers[name].client = api(servers[name].server!.url);
});

afterAll(async () => {
  await Promise.all([servers.a.server?.stop(), servers.b.server?.stop()]);
  await gitServer?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('two production servers on clones of one remote', () => {
  let ids: Record<string, string>;

  it('make pages with the same readable slugs without colliding, and sync them with no conflict', async () => {
    ids = {
      // Same pathname in two sites.
      mainTeam: await createPage('a', 'main', '/team'),
      blogTeam: await createPage('b', 'blog', '/team'),
      // Two pathnames with the same slug, in one site and collection.
      newsDash: await createPage('a', 'main', '/news-y'),
      newsSlash: await createPage('b', 'main', '/news/y'),
    };
    expect(ids.mainTeam).toMatch(idLike('team'));
    expect(ids.blogTeam).toMatch(idLike('team'));
    expect(ids.newsDash).toMatch(idLike('news-y'));
    expect(ids.newsSlash).toMatch(idLike('news-y'));
    expect(new Set(Object.values(ids)).size).toBe(4);

    await sync('a', 'commit');
    await sync('a', 'push');
    await sync('b', 'commit');
    const pulledB = await sync('b', 'pull');
    expect(pulledB).toMatchObject({ success: true, idClashes: [] });
    await sync('b', 'push');
    const pulledA = await sync('a', 'pull');
    expect(pulledA).toMatchObject({ success: true, idClashes: [] });
    expect(await gitCli(servers.a.clone, ['rev-parse', 'HEAD'])).toBe(
      await gitCli(servers.b.clone, ['rev-parse', 'HEAD']),
    );
  });

  it('list both pages on both servers, with the same items and etags', async () => {
    for (const name of ['a', 'b'] as const) {
      const blog = await client(name).get('/blog/pages');
      expect(
        blog.json.items.map((item: { id: string }) => item.id),
        name,
      ).toEqual([ids.blogTeam]);
      const main = await client(name).get('/main/pages');
      expect(main.json.items.map((item: { id: string }) => item.id).sort(), name).toEqual(
        [ids.mainTeam, ids.newsDash, ids.newsSlash].sort(),
      );
      const team = (await client(name).get(`/content/${ids.blogTeam}/en`)).json.localized;
      expect(team.pathname).toBe('/team');
      expect(team.content).toEqual({ visualData: { from: 'b' } });
      expect((await client(name).get('/git/status')).json).toMatchObject({
        hasChanges: false,
        ahead: 0,
        behind: 0,
        idClashes: [],
      });
    }
    const [onA, onB] = await Promise.all([everything('a'), everything('b')]);
    expect(onA.total).toBe(4);
    expect(onA).toEqual(onB);
    for (const name of ['a', 'b'] as const) expect(logs(name)).not.toContain('ID clash');
  });

  it('report a hand-copied file that claims an existing ID, and serve the same file on both servers', async () => {
    const original = `pages/main/pages/${ids.mainTeam}.en.json`;
    const copy = `pages/main/pages-copy/${ids.mainTeam}.en.json`;
    const contentA = path.join(servers.a.clone, 'content');
    await mkdir(path.join(contentA, 'pages/main/pages-copy'), { recursive: true });
    await copyFile(path.join(contentA, original), path.join(contentA, copy));
    const clash = { id: ids.mainTeam, served: [original], ignored: [copy] };

    const statusA = await client('a').get('/git/status');
    expect(statusA.json).toMatchObject({ hasChanges: true, idClashes: [clash] });
    const line = logs('a')
      .split('\n')
      .find((entry) => entry.includes('ID clash'));
    expect(line).toBeDefined();
    expect(line).toContain(original);
    expect(line).toContain(copy);
    expect(line).toMatch(/rename .* to a new ID/);

    await sync('a', 'commit');
    await sync('a', 'push');
    expect(await sync('b', 'pull')).toMatchObject({ success: true, idClashes: [clash] });
    expect((await client('b').get('/git/status')).json).toMatchObject({ idClashes: [clash] });
    expect(logs('b')).toContain(`${original} and ${copy} both claim the ID "${ids.mainTeam}"`);

    const [onA, onB] = await Promise.all([
      client('a').get(`/content/${ids.mainTeam}`),
      client('b').get(`/content/${ids.mainTeam}`),
    ]);
    expect(onA.json).toEqual(onB.json);
    expect(onA.json).toMatchObject({ site: 'main', collection: 'pages' });
    expect(await everything('a')).toEqual(await everything('b'));
  });
});
