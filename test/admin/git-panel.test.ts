import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, apiCaller, json, shootBothSizes, visualPage } from '../support/admin-site.js';
import { checkA11y, launchBrowser } from '../support/browser.js';
import { gitCli } from '../support/git-cli.js';
import { type GitServer, startGitServer } from '../support/git-server.js';
import { createSite, type RunningSite } from '../support/site.js';

// The git panel against a real `git http-backend` on loopback: the site's content lives in a
// repository in the OS temp folder whose origin is a bare repository behind that server.

const TOKEN = 'panel-token-5678';
const page = visualPage;
const FILES: Record<string, string> = {
  'content/sites.json': json({ sites: { shop: { locales: ['en'], defaultLocale: 'en' } }, globalLocales: ['en'] }),
  'content/pages/shop/pages/home.en.json': page('/', 'Home'),
  'content/pages/shop/pages/about.en.json': page('/about', 'About'),
};

describe('the git panel in a real browser (astro dev, real git server)', () => {
  let scratch: string;
  let repo: string;
  let other: string;
  let gitServer: GitServer;
  let server: RunningSite;
  let browser: Browser;
  let tab: Page;

  const git = (...args: string[]) => gitCli(repo, args);
  const otherGit = (...args: string[]) => gitCli(other, args);
  const api = apiCaller(() => server.url);
  async function retitle(id: string, title: string) {
    const current = await api('GET', `/content/${id}/en`);
    await api('PUT', `/content/${id}?locale=en&etag=${current.localized.etag}`, { meta: { title } });
  }
  const shoot = (name: string) => shootBothSizes(tab, name);

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'quire-git-panel-'));
    repo = path.join(scratch, 'site');
    other = path.join(scratch, 'other');
    const remotes = path.join(scratch, 'remotes');
    await mkdir(remotes);
    gitServer = await startGitServer({ root: remotes, token: TOKEN });
    await gitCli(remotes, ['init', '-q', '--bare', '-b', 'main', 'site.git']);
    const remoteUrl = gitServer.repoUrl('site.git');
    const withToken = remoteUrl.replace('http://', `http://x-access-token:${TOKEN}@`);

    await mkdir(repo);
    await git('init', '-q', '-b', 'main');
    for (const [relative, text] of Object.entries(FILES)) {
      await mkdir(path.dirname(path.join(repo, relative)), { recursive: true });
      await writeFile(path.join(repo, relative), text);
    }
    await git('add', '-A');
    await git('commit', '-q', '-m', 'Start');
    await git('remote', 'add', 'origin', remoteUrl);
    await git('push', '-q', withToken, 'main');
    await git('fetch', '-q', withToken, 'main:refs/remotes/origin/main');
    await gitCli(scratch, ['clone', '-q', withToken, 'other']);

    const site = await createSite({
      name: 'admin-git-panel',
      config: `{ contentRoot: ${JSON.stringify(path.join(repo, 'content'))}, requireIdentity: false }`,
    });
    const env = { GIT_TOKEN: TOKEN, GIT_USERNAME: undefined, GIT_BRANCH: undefined, CONTENT_PATH: undefined };
    [server, browser] = await Promise.all([site.startDev(env), launchBrowser()]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    tab = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await gitServer?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('names two changed items, commits them with the offered message, pushes: ahead 0', async () => {
    await tab.goto(`${server.url}${ADMIN}/git`);
    await tab.getByText('Nothing to commit').waitFor();

    await retitle('home', 'Welcome');
    await retitle('about', 'About us');
    // The panel refreshes from /events: no reload.
    const files = tab.getByRole('table', { name: 'Changed files' });
    await files.getByRole('link', { name: 'Welcome (en)' }).waitFor();
    await files.getByRole('link', { name: 'About us (en)' }).waitFor();
    expect(await files.textContent()).toContain('page on shop');
    expect(await files.textContent()).toContain('changed');
    await expect(tab.locator('.badge--count').first().textContent()).resolves.toMatch(/^2/);
    expect(await tab.getByLabel('Commit message').inputValue()).toBe('Update About us (en), Welcome (en)');
    await shoot('git-panel');

    await tab.getByRole('button', { name: 'Commit 2 files' }).click();
    await tab.getByText('Nothing to commit').waitFor();
    expect(await git('log', '-1', '--format=%s')).toBe('Update About us (en), Welcome (en)\n');
    await tab.getByText('1 ahead, 0 behind').waitFor();
    await checkA11y(tab, { label: 'git panel after commit' });

    const push = tab.getByRole('button', { name: 'Push 1 commit' });
    await push.click();
    await tab.getByText('0 ahead, 0 behind').waitFor();
    expect((await git('rev-parse', 'HEAD')).trim()).toBe((await git('rev-parse', 'refs/remotes/origin/main')).trim());
    await otherGit('pull', '-q');
    expect(await readFile(path.join(other, FILES_ABOUT), 'utf8')).toContain('About us');
  });

  it('shows a conflicting pull: the paths and what to do, and changes nothing', async () => {
    await writeFile(path.join(other, FILES_ABOUT), page('/about', 'About them'));
    await otherGit('commit', '-q', '-am', 'Their about');
    await otherGit('push', '-q', 'origin', 'main');
    await retitle('about', 'About me');
    await tab.getByRole('link', { name: 'About me (en)' }).waitFor();
    await tab.getByRole('button', { name: /^Commit 1 file$/ }).click();
    await tab.getByText('Nothing to commit').waitFor();
    const before = await readFile(path.join(repo, FILES_ABOUT), 'utf8');
    const head = await git('rev-parse', 'HEAD');

    await tab.getByRole('button', { name: 'Pull' }).click();
    const alert = tab.getByRole('alert');
    await alert.getByText('The pull stopped; nothing was changed here.').waitFor();
    expect(await alert.textContent()).toContain(FILES_ABOUT);
    expect(await alert.textContent()).toContain('combine the two versions');
    expect(await alert.textContent()).not.toContain(TOKEN);
    expect(await readFile(path.join(repo, FILES_ABOUT), 'utf8')).toBe(before);
    expect(await git('rev-parse', 'HEAD')).toBe(head);
    await checkA11y(tab, { label: 'git panel with a pull conflict' });
  });
});

const FILES_ABOUT = 'content/pages/shop/pages/about.en.json';
