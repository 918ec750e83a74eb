import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ID_PATTERN, NAME_PATTERN } from '../src/content/codes.js';
import { idBase, uniqueId } from '../src/content/ids.js';
import { ItemIndex } from '../src/content/item-index.js';
import { type ContentStore, createContentStore } from '../src/content/store.js';
import type { ContentType, ItemHome, StoredLocale } from '../src/content/types.js';
import { createChangeFeed } from '../src/events/feed.js';
import { createSitesConfig } from '../src/sites/sites-config.js';
import { idLike } from './support/ids.js';

// Issue 14: IDs that clones of one repository make without talking to each other must not
// collide, and files that still claim one ID must be served the same way on every server.

describe('content IDs', () => {
  it('keeps the readable part and adds a URL-safe random suffix that also makes a valid name', () => {
    const id = uniqueId(idBase('page', { pathname: '/Über uns/Team', collection: 'pages' }), () => false);
    expect(id).toMatch(idLike('uber-uns-team'));
    expect(encodeURIComponent(id)).toBe(id);
    const long = uniqueId(idBase('fragment', { name: 'x'.repeat(64), collection: 'components' }), () => false);
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(ID_PATTERN);
    expect(long).toMatch(NAME_PATTERN);
    expect(uniqueId(idBase('page', { pathname: '/', collection: 'pages' }), () => false)).toMatch(idLike('home'));
  });

  it('gives 200,000 distinct IDs for one pathname made on 100 simulated clones that never see each other', () => {
    const all = new Set<string>();
    let made = 0;
    for (let clone = 0; clone < 100; clone++) {
      // Each clone checks only its own IDs, as a server does.
      const own = new Set<string>();
      for (let n = 0; n < 2000; n++) {
        const id = uniqueId(idBase('page', { pathname: '/team', collection: 'pages' }), (candidate) =>
          own.has(candidate),
        );
        own.add(id);
        all.add(id);
        made++;
      }
    }
    expect(made).toBe(200_000);
    expect(all.size).toBe(made);
    for (const id of [...all].slice(0, 1000)) expect(id).toMatch(idLike('team'));
  });

  it('draws again when the suffix is already taken on this server', () => {
    const draws = [Buffer.alloc(12, 0), Buffer.alloc(12, 0), Buffer.alloc(12, 1)];
    const random = vi.fn((size: number) => draws.shift() ?? randomBytes(size));
    const first = uniqueId('team', () => false, random);
    expect(first).toBe('team-000000000000');
    expect(uniqueId('team', (id) => id === first, random)).toBe('team-111111111111');
    expect(random).toHaveBeenCalledTimes(3);
  });
});

describe('files that claim one ID', () => {
  const stored = (file: string): StoredLocale => ({
    file: {
      type: 'visual',
      pathname: '/team',
      created: '',
      modified: '',
      meta: {},
      content: { visualData: {} },
    } as never,
    metaEtag: 'm',
    contentEtag: 'c',
    path: file,
    signature: file,
  });
  const main: ItemHome = { kind: 'page', site: 'main', collection: 'pages' };
  const blog: ItemHome = { kind: 'page', site: 'blog', collection: 'pages' };
  const claims: Array<[ItemHome, ContentType, string, string]> = [
    [main, 'visual', 'en', '/c/pages/main/pages/team.en.json'],
    [main, 'visual', 'de', '/c/pages/main/pages/team.de.json'],
    [blog, 'visual', 'en', '/c/pages/blog/pages/team.en.json'],
  ];

  const indexOf = (order: typeof claims) => {
    const index = new ItemIndex();
    const notices = order.map(([home, type, locale, file]) =>
      index.setLocale(home, 'team', type, locale, stored(file)),
    );
    return { index, notices };
  };

  it('serves the claimant whose folder sorts first, whatever order the files were read in', () => {
    const orders = [claims, [...claims].reverse(), [claims[2]!, claims[0]!, claims[1]!]];
    for (const order of orders) {
      const { index, notices } = indexOf(order);
      const item = index.get('team')!;
      expect(item.site).toBe('blog');
      expect([...item.locales.keys()]).toEqual(['en']);
      expect(index.clashes()).toEqual([
        {
          id: 'team',
          served: ['/c/pages/blog/pages/team.en.json'],
          ignored: ['/c/pages/main/pages/team.de.json', '/c/pages/main/pages/team.en.json'],
        },
      ]);
      // Each order reports the clash at least once, naming a file of each side.
      const reported = notices.filter((notice) => notice !== null);
      expect(reported.length).toBeGreaterThan(0);
      for (const notice of reported) {
        expect(notice!.served).toBe('/c/pages/blog/pages/team.en.json');
        expect(notice!.ignored).toMatch(/^\/c\/pages\/main\//);
      }
    }
  });

  it('brings every locale of the hidden claimant back when the served one goes, and forgets hidden files that go', () => {
    const { index } = indexOf(claims);
    index.removeLocale('team', 'en', '/c/pages/blog/pages/team.en.json');
    const item = index.get('team')!;
    expect(item.site).toBe('main');
    expect([...item.locales.keys()].sort()).toEqual(['de', 'en']);
    expect(index.clashes()).toEqual([]);

    const again = indexOf(claims).index;
    again.removeLocale('team', 'de', '/c/pages/main/pages/team.de.json');
    again.removeLocale('team', 'en', '/c/pages/main/pages/team.en.json');
    expect(again.clashes()).toEqual([]);
    expect(again.get('team')!.site).toBe('blog');
    expect([...again.files()].map(([, , file]) => file)).toEqual(['/c/pages/blog/pages/team.en.json']);
  });
});

describe('a store with a hand-copied file', () => {
  let root: string;
  let store: ContentStore | undefined;

  afterEach(async () => {
    await store?.close();
    if (root) await rm(path.dirname(root), { recursive: true, force: true });
  });

  it('serves one of the two, reports both files, and logs what to do', async () => {
    root = path.join(await mkdtemp(path.join(os.tmpdir(), 'quire-ids-')), 'content');
    const sites = {
      sites: { main: { locales: ['en'], defaultLocale: 'en' }, blog: { locales: ['en'], defaultLocale: 'en' } },
      globalLocales: ['en'],
    };
    await mkdir(path.join(root, 'pages/main/pages'), { recursive: true });
    await mkdir(path.join(root, 'pages/blog/pages'), { recursive: true });
    await writeFile(path.join(root, 'sites.json'), JSON.stringify(sites));
    const page = (title: string) =>
      JSON.stringify({ type: 'visual', pathname: '/team', meta: { title }, content: { visualData: {} } });
    await writeFile(path.join(root, 'pages/main/pages/team.en.json'), page('Main'));
    await writeFile(path.join(root, 'pages/blog/pages/team.en.json'), page('Blog'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      store = createContentStore({
        root,
        sites: createSitesConfig(root),
        metadataBytes: 4096,
        excluded: [path.join(root, 'assets')],
        feed: createChangeFeed(),
      });
      expect((await store.get('team')).site).toBe('blog');
      expect(await store.idClashes()).toEqual([
        { id: 'team', served: ['pages/blog/pages/team.en.json'], ignored: ['pages/main/pages/team.en.json'] },
      ]);
      const logged = warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('ID clash'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('pages/blog/pages/team.en.json');
      expect(logged[0]).toContain('pages/main/pages/team.en.json');
      expect(logged[0]).toMatch(/rename .* to a new ID/);
    } finally {
      warn.mockRestore();
    }
  });
});
