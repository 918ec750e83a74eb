import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../src/assets/address-policy.js';
import { downloadToFile } from '../src/assets/download.js';
import { checkNewFolderName, foldToAscii, sanitizeFilename, uniqueFilename } from '../src/assets/filenames.js';
import { parseAssetPath } from '../src/assets/safe-path.js';
import { isSvgText } from '../src/assets/sniff.js';
import { createContentReferences, createUsageScanner } from '../src/assets/usage.js';
import { storedLocale } from '../src/content/sync.js';
import type { Item, LocaleFile } from '../src/content/types.js';
import { QuireError } from '../src/errors.js';
import { png, svg } from './support/images.js';

const code = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return error instanceof QuireError ? error.code : String(error);
  }
};

describe('filenames', () => {
  const png_ = { mimeType: 'image/png', ext: 'png' };
  const jpeg = { mimeType: 'image/jpeg', ext: 'jpg' };

  it.each([
    ['Ünïcödé Fïlé.PNG', png_, 'unicode-file.png'],
    ['Crème Brûlée (1).jpeg', jpeg, 'creme-brulee-1.jpeg'],
    ['Straße_Œuvre.JPG', jpeg, 'strasse_oeuvre.jpg'],
    ['photo.png', jpeg, 'photo.jpg'], // the name lies: the bytes decide the extension
    ['.htaccess', png_, 'htaccess.png'],
    ['...', png_, 'file.png'],
    ['日本語.png', png_, 'file.png'],
    ['', png_, 'file.png'],
    ['CON.png', png_, 'con-file.png'],
    ['nul', png_, 'nul-file.png'],
    ['lpt1.png', png_, 'lpt1-file.png'],
    ['../../etc/passwd', png_, 'passwd.png'],
    ['C:\\Users\\me\\cat.png', png_, 'cat.png'],
    ['ｆｕｌｌｗｉｄｔｈ.png', png_, 'fullwidth.png'],
    [`${'a'.repeat(300)}.png`, png_, `${'a'.repeat(80)}.png`],
  ])('%s → %s', (original, sniffed, expected) => {
    expect(sanitizeFilename(original, sniffed)).toBe(expected);
  });

  it('folds Unicode letters to ASCII', () => {
    expect(foldToAscii('Ångström Ærø Łódź')).toBe('Angstrom AEro Lodz');
  });

  it('numbers collisions without regard to case', () => {
    const taken = new Set(['cat.png', 'cat-1.png']);
    expect(uniqueFilename('cat.png', (name) => taken.has(name))).toBe('cat-2.png');
    expect(uniqueFilename('Dog.png', (name) => taken.has(name))).toBe('Dog.png');
    expect(uniqueFilename('CAT.png', (name) => taken.has(name))).toBe('CAT-2.png');
  });

  it('refuses folder names that some file systems cannot hold', () => {
    expect(code(() => checkNewFolderName('Fotos 2024', 'path'))).toBe('ok');
    for (const bad of ['a:b', 'what?', 'trailing.', 'aux', 'x'.repeat(256)])
      expect(code(() => checkNewFolderName(bad, 'path'))).toBe('INVALID_REQUEST');
  });
});

describe('asset paths', () => {
  it.each([
    ['photos/cat.png', false, ['photos', 'cat.png']],
    ['/photos/2024/', true, ['photos', '2024']],
    ['/', true, []],
    ['', true, []],
    ['Fotos Ürlaub/bild.png', false, ['Fotos Ürlaub', 'bild.png']],
  ])('accepts %j', (input, folder, segments) => {
    expect(parseAssetPath(input, 'path', { folder })).toEqual(segments);
  });

  it.each([
    '../secret',
    'a/../../b',
    './a',
    'a//b',
    '/etc/passwd',
    '//etc',
    'C:/Windows',
    'c:x',
    'a\\..\\b',
    '..\\x',
    'a\u0000.png',
    'a\n.png',
    '%2e%2e/x',
    '%2E%2E%2Fx',
    'a%2fb',
    '.quire-assets.json',
    'a/.quire-tmp/x.part',
    '..',
  ])('refuses %j', (input) => {
    expect(code(() => parseAssetPath(input, 'path', { folder: false }))).toBe('INVALID_REQUEST');
    if (!/^\/[^/]/.test(input))
      expect(code(() => parseAssetPath(input, 'folder', { folder: true }))).toBe('INVALID_REQUEST');
  });
});

describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '224.0.0.251',
    '239.255.255.250',
    '0.0.0.0',
    '255.255.255.255',
    '192.0.2.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('downloads', () => {
  let server: http.Server;
  let port: number;
  let dir: string;
  let hits: string[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'quire-download-'));
    hits = [];
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/cat.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png(2, 2));
      else if (req.url === '/to-private') res.writeHead(302, { location: `http://127.0.0.2:${port}/cat.png` }).end();
      else if (req.url === '/to-mapped')
        res.writeHead(301, { location: `http://[::ffff:10.1.2.3]:${port}/cat.png` }).end();
      else if (req.url === '/to-file') res.writeHead(307, { location: 'file:///etc/passwd' }).end();
      else if (req.url === '/relative') res.writeHead(303, { location: '/cat.png' }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(5000));
      else if (req.url === '/slow') setTimeout(() => res.end('late'), 3000).unref();
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  // 127.0.0.1 stands in for "the public internet"; every other address is private here.
  const onlyLoopbackOne = (address: string) => address === '127.0.0.1';
  let n = 0;
  const fetchTo = (url: string, options: Partial<Parameters<typeof downloadToFile>[2]> = {}) =>
    downloadToFile(url, path.join(dir, `f${n++}`), {
      maxBytes: 1000,
      timeoutMs: 2000,
      maxRedirects: 3,
      isAllowed: onlyLoopbackOne,
      ...options,
    });
  const failure = async (promise: Promise<unknown>) => {
    try {
      await promise;
      return { code: 'ok', reason: '' };
    } catch (error) {
      const quire = error as QuireError;
      return { code: quire.code, reason: (quire.details as { reason?: string } | undefined)?.reason ?? quire.message };
    }
  };

  it('follows an allowed relative redirect', async () => {
    const result = await fetchTo(`http://127.0.0.1:${port}/relative`);
    expect(result.finalUrl.pathname).toBe('/cat.png');
    expect(result.size).toBe(png(2, 2).length);
  });

  it('refuses a redirect to a private address, an IPv4-mapped one and a non-http scheme, before connecting', async () => {
    hits = [];
    expect(await failure(fetchTo(`http://127.0.0.1:${port}/to-private`))).toMatchObject({
      code: 'ASSET_UPLOAD_FAILED',
      reason: expect.stringContaining('127.0.0.2'),
    });
    expect(await failure(fetchTo(`http://127.0.0.1:${port}/to-mapped`))).toMatchObject({
      code: 'ASSET_UPLOAD_FAILED',
      reason: expect.stringContaining('not a public address'),
    });
    expect(await failure(fetchTo(`http://127.0.0.1:${port}/to-file`))).toMatchObject({
      code: 'ASSET_UPLOAD_FAILED',
      reason: expect.stringContaining('file:'),
    });
    expect(hits).toEqual(['/to-private', '/to-mapped', '/to-file']);
  });

  it('checks host names after DNS resolution', async () => {
    hits = [];
    const refused = await failure(fetchTo(`http://localhost:${port}/cat.png`, { isAllowed: () => false }));
    expect(refused).toMatchObject({
      code: 'ASSET_UPLOAD_FAILED',
      reason: expect.stringMatching(/localhost resolves to .* not a public address/),
    });
    expect(hits).toEqual([]);
  });

  it('bounds redirects, size and time', async () => {
    expect(await failure(fetchTo(`http://127.0.0.1:${port}/loop`))).toMatchObject({
      code: 'ASSET_UPLOAD_FAILED',
      reason: 'more than 3 redirects',
    });
    expect((await failure(fetchTo(`http://127.0.0.1:${port}/big`))).code).toBe('ASSET_TOO_LARGE');
    expect(await failure(fetchTo(`http://127.0.0.1:${port}/slow`, { timeoutMs: 300 }))).toMatchObject({
      code: 'ASSET_UPLOAD_FAILED',
      reason: 'the download timed out',
    });
    expect(await failure(fetchTo(`http://127.0.0.1:${port}/missing`))).toMatchObject({
      code: 'ASSET_UPLOAD_FAILED',
      reason: expect.stringContaining('HTTP 404'),
    });
  });

  it('stops writing at the limit while streaming', async () => {
    const before = await readdir(dir);
    await failure(fetchTo(`http://127.0.0.1:${port}/big`));
    // The caller owns the target and removes it; the downloader must not have written past the limit.
    const after = await readdir(dir);
    for (const name of after.filter((entry) => !before.includes(entry)))
      expect((await stat(path.join(dir, name))).size).toBeLessThanOrEqual(1000 + 65536);
  });
});

describe('usage scanner', () => {
  const prefix = '/__cms/api/assets/serve/';
  const url = (asset: string) => `${prefix}${asset}`;
  // As the index keeps locales: the content's references found when the file is read, the content dropped.
  const referencesOf = createContentReferences(prefix);
  const item = (id: string, locales: Record<string, Partial<LocaleFile>>): Item => ({
    id,
    kind: 'page',
    type: 'visual',
    site: 'web',
    collection: 'pages',
    locales: new Map(
      Object.entries(locales).map(([locale, file]) => [
        locale,
        storedLocale({ created: '', modified: '', meta: {}, ...file }, '', '', referencesOf),
      ]),
    ),
  });

  it('reports exact references with precise field paths, never look-alikes', () => {
    const usage = createUsageScanner(prefix)([
      item('home', {
        en: {
          meta: { ogImage: url('zoo/cat.png'), description: `see ${url('zoo/cat.png')}` },
          content: {
            visualData: { blocks: [{ src: url('zoo/bobcat.png') }, { text: 'x' }, { src: url('zoo/cat.png') }] },
          },
        },
        de: { meta: { ogImage: url('zoo/cat.png?v=2') }, inheritance: { state: 'inherited', from: 'en' } },
      }),
      item('story', {
        en: {
          content: {
            mdx:
              `![A cat](${url('zoo/cat.png')} "Cat")\n[bob](${url('zoo/bobcat.png')})\n` +
              `<img src="${url('zoo/cat.png')}" />\n` +
              `${url('zoo/cat.png.bak')}\n[ref]: ${url('zoo/cat%20two.png')}`,
          },
        },
      }),
      item('settings', {
        en: {
          content: {
            data: {
              gallery: { items: ['x', url('zoo/cat.png')] },
              'hero image': url('zoo/bobcat.png'),
              other: `${url('zoo/cat.png')}x`,
            },
          },
        },
      }),
    ]);
    expect(usage.get('zoo/cat.png')).toEqual([
      { page: 'home', locale: 'de', field: 'meta.ogImage' },
      { page: 'home', locale: 'en', field: 'meta.ogImage' },
      { page: 'home', locale: 'en', field: 'content.visualData.blocks[2].src' },
      { page: 'settings', locale: 'en', field: 'content.data.gallery.items[1]' },
      { page: 'story', locale: 'en', field: 'content.mdx' },
    ]);
    expect(usage.get('zoo/bobcat.png')).toEqual([
      { page: 'home', locale: 'en', field: 'content.visualData.blocks[0].src' },
      { page: 'settings', locale: 'en', field: 'content.data["hero image"]' },
      { page: 'story', locale: 'en', field: 'content.mdx' },
    ]);
    expect(usage.get('zoo/cat two.png')).toEqual([{ page: 'story', locale: 'en', field: 'content.mdx' }]);
    expect(usage.has('zoo/cat.png.bak')).toBe(false);
  });
});

describe('SVG check', () => {
  it('recognises SVG documents and nothing else', () => {
    expect(isSvgText(svg(3, 3))).toBe(true);
    expect(
      isSvgText(
        Buffer.from('\ufeff<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd" [ <!ENTITY a "b"> ]>\n<svg/>'),
      ),
    ).toBe(true);
    expect(isSvgText(Buffer.from('<html><svg></svg></html>'))).toBe(false);
    expect(isSvgText(Buffer.from('<?xml version="1.0"?><note>svg</note>'))).toBe(false);
    expect(isSvgText(Buffer.from('<svgx/>'))).toBe(false);
    expect(isSvgText(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x20, 0x00]))).toBe(false);
  });
});
