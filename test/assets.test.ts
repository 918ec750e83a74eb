import { lstat, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder } from './reliability/support/files.js';
import { type ApiClient, api } from './support/http.js';
import { ELF, GIF_1x1, ico, JPEG_3x2, PDF, png, svg, WEBP_4x3 } from './support/images.js';
import { createSite, type RunningSite, type TestSite } from './support/site.js';

const SITES = { sites: { web: { locales: ['en', 'de'], defaultLocale: 'en' } }, globalLocales: ['en'] };
const MAX_BYTES = 200_000;
const SECRET = 'CANARY-7f3a: this file lies outside the assets folder and must never be served or changed';
const SERVE = '/__cms/api/assets/serve/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A multipart body as a browser builds it. */
function form(bytes: Buffer, filename: string, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append('file', new Blob([new Uint8Array(bytes)]), filename);
  return data;
}

/** A loopback HTTP server to import from; counts requests. */
async function startOrigin() {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const send = (type: string, body: Buffer) =>
      res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
    switch (req.url) {
      case '/cat.png':
        return send('image/png', png(5, 4));
      case '/photo':
        return send('image/jpeg', JPEG_3x2);
      case '/redirect':
        return res.writeHead(302, { location: '/cat.png' }).end();
      case '/loop':
        return res.writeHead(302, { location: '/loop' }).end();
      case '/tool.png':
        return send('image/png', ELF);
      case '/big.png':
        return send('image/png', png(10, 10, { padding: MAX_BYTES + 10_000 }));
      default:
        return res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.requestTimeout = 10_000;
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname: string) => `http://127.0.0.1:${port}${pathname}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(['dev', 'production'] as const)('assets API (%s)', (mode) => {
  let site: TestSite;
  let open: TestSite;
  let server: RunningSite;
  let openServer: RunningSite;
  let client: ApiClient;
  let trusted: ApiClient;
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let assetsDir: string;
  let outsideDir: string;
  let canary: string;

  beforeAll(async () => {
    origin = await startOrigin();
    [site, open] = await Promise.all([
      createSite({
        name: `assets-${mode}`,
        config: `{ requireIdentity: false, assets: { maxBytes: ${MAX_BYTES} } }`,
        content: { 'sites.json': JSON.stringify(SITES) },
        // Prerendered in the production build (the site's output is static): its image URL must still work.
        files: {
          'src/pages/gallery.astro': `---\n---\n<html><body><img src="${SERVE}gallery/pic.png" alt="A picture"></body></html>\n`,
        },
      }),
      // Imports from private addresses allowed; identity required, given by a trusted header.
      createSite({
        name: `assets-open-${mode}`,
        config:
          `{ requireIdentity: true, auth: { type: 'trusted-header', emailHeader: 'x-test-user' }, ` +
          `importUrl: { allowPrivateNetworks: true }, assets: { maxBytes: ${MAX_BYTES} } }`,
        content: { 'sites.json': JSON.stringify(SITES) },
      }),
    ]);
    assetsDir = path.join(site.contentRoot, 'assets');
    outsideDir = path.join(site.dir, 'outside');
    canary = path.join(outsideDir, 'secret.txt');
    await mkdir(outsideDir, { recursive: true });
    await writeFile(canary, SECRET);
    await mkdir(assetsDir, { recursive: true });
    // Symlinks inside the assets folder that lead out of it: a folder and a file.
    await symlink(outsideDir, path.join(assetsDir, 'escape'));
    await symlink(canary, path.join(assetsDir, 'escape.png'));
    const start = (target: TestSite) => (mode === 'dev' ? target.startDev() : target.buildAndStart());
    // One after the other: two production builds at once would compete for the machine's two cores.
    server = await start(site);
    openServer = await start(open);
    client = api(server.url);
    trusted = api(openServer.url);
  });

  afterAll(async () => {
    await server?.stop();
    await openServer?.stop();
    await origin?.close();
  });

  const upload = (
    bytes: Buffer,
    filename: string,
    fields: Record<string, string> = {},
    target = client,
    headers: Record<string, string> = {},
  ) => target.post('/assets/upload', { rawBody: form(bytes, filename, fields), headers });

  async function uploaded(bytes: Buffer, filename: string, fields: Record<string, string> = {}) {
    const response = await upload(bytes, filename, fields);
    expect(response.status, response.text).toBe(201);
    return response.json;
  }

  const raw = (pathname: string, init: RequestInit = {}) =>
    fetch(`${server.url}${pathname}`, { ...init, redirect: 'manual', signal: AbortSignal.timeout(30_000) });

  const partFiles = async () =>
    (await filesUnder(path.join(assetsDir, '.quire-tmp'))).filter((name) => name.endsWith('.part'));

  describe('upload', () => {
    it('stores a PNG under a clean name, keeps the original name and measures it', async () => {
      const bytes = png(7, 5);
      const entry = await uploaded(bytes, 'Ünïcödé Fïlé.PNG', {
        alt: 'A red box',
        uploadedBy: 'ada@example.com',
        tags: 'red, box',
      });
      expect(entry).toMatchObject({
        filename: 'unicode-file.png',
        originalName: 'Ünïcödé Fïlé.PNG',
        mimeType: 'image/png',
        size: bytes.length,
        width: 7,
        height: 5,
        alt: 'A red box',
        uploadedBy: 'ada@example.com',
        folder: '/',
        tags: ['red', 'box'],
        path: 'unicode-file.png',
        url: `${SERVE}unicode-file.png`,
      });
      expect(Date.parse(entry.uploadedAt)).not.toBeNaN();
      expect(await readFile(path.join(assetsDir, 'unicode-file.png'))).toEqual(bytes);
      const manifest = JSON.parse(await readFile(path.join(assetsDir, '.quire-assets.json'), 'utf8'));
      expect(manifest['unicode-file.png']).toMatchObject({
        originalName: 'Ünïcödé Fïlé.PNG',
        alt: 'A red box',
        width: 7,
        height: 5,
      });
    });

    it('sniffs JPEG, GIF, WebP, SVG, ICO and PDF from their bytes, into nested folders', async () => {
      const cases: Array<[Buffer, string, string, string, number | undefined, number | undefined]> = [
        [JPEG_3x2, 'holiday.jpeg', 'holiday.jpeg', 'image/jpeg', 3, 2],
        [GIF_1x1, 'spacer.gif', 'spacer.gif', 'image/gif', 1, 1],
        [WEBP_4x3, 'modern.webp', 'modern.webp', 'image/webp', 4, 3],
        [svg(30, 20), 'logo.svg', 'logo.svg', 'image/svg+xml', 30, 20],
        [ico(), 'favicon.ico', 'favicon.ico', 'image/x-icon', 16, 16],
        [PDF, 'Price List.pdf', 'price-list.pdf', 'application/pdf', undefined, undefined],
        // The name says PNG, the bytes say JPEG: the bytes win, and so does the extension.
        [JPEG_3x2, 'liar.png', 'liar.jpg', 'image/jpeg', 3, 2],
      ];
      for (const [bytes, name, filename, mimeType, width, height] of cases) {
        const entry = await uploaded(bytes, name, { folder: '/photos/2024' });
        expect(entry, name).toMatchObject({
          filename,
          mimeType,
          folder: '/photos/2024',
          path: `photos/2024/${filename}`,
          originalName: name,
        });
        expect(entry.width, name).toBe(width);
        expect(entry.height, name).toBe(height);
      }
    });

    it('refuses an executable renamed .png (415) and text posing as SVG, leaving nothing behind', async () => {
      const before = await filesUnder(assetsDir);
      for (const [bytes, name] of [
        [ELF, 'cute-cat.png'],
        [Buffer.from('<html><script>alert(1)</script></html>'), 'page.svg'],
        [Buffer.alloc(0), 'empty.png'],
      ] as const) {
        const response = await upload(bytes, name);
        expect(response.status, name).toBe(415);
        expect(response.json.error.code).toBe('ASSET_INVALID_FORMAT');
      }
      expect(await filesUnder(assetsDir)).toEqual(before);
    });

    it('refuses a file over assets.maxBytes with 413 and leaves no partial file', async () => {
      const before = await filesUnder(assetsDir);
      const response = await upload(png(10, 10, { padding: MAX_BYTES + 50_000 }), 'huge.png');
      expect(response.status).toBe(413);
      expect(response.json.error.code).toBe('ASSET_TOO_LARGE');
      expect(await filesUnder(assetsDir)).toEqual(before);
      expect(await partFiles()).toEqual([]);
      // The server is still fine afterwards.
      expect((await upload(png(2, 2), 'after-huge.png')).status).toBe(201);
    });

    it('answers 400 INVALID_REQUEST without a file or without multipart', async () => {
      const noFile = new FormData();
      noFile.append('alt', 'nothing');
      const missing = await client.post('/assets/upload', { rawBody: noFile });
      expect(missing.status).toBe(400);
      expect(missing.json.error.code).toBe('INVALID_REQUEST');
      const json = await client.post('/assets/upload', { body: { file: 'x' } });
      expect(json.status).toBe(400);
      expect(json.json.error.code).toBe('INVALID_REQUEST');
      const badWidth = await upload(png(2, 2), 'w.png', { width: 'wide' });
      expect(badWidth.status).toBe(400);
      expect(badWidth.json.error.details.fields[0].field).toBe('width');
    });

    it('gives colliding names a numeric suffix', async () => {
      const first = await uploaded(png(2, 2), 'Twin.png', { folder: 'twins' });
      const second = await uploaded(png(3, 3), 'twin.PNG', { folder: 'twins' });
      expect([first.filename, second.filename]).toEqual(['twin.png', 'twin-1.png']);
      expect(second.originalName).toBe('twin.PNG');
    });

    it('takes 20 concurrent uploads of the same name: 20 files, 20 manifest entries', async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => upload(png(i + 1, 1), 'burst.png', { folder: '/burst', alt: `n${i}` })),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
      const names = responses.map((response) => response.json.filename);
      expect(new Set(names).size).toBe(20);
      const listing = await client.get('/assets/folders', { query: { path: '/burst' } });
      expect(listing.json.assets).toHaveLength(20);
      expect(listing.json.assets.map((asset: { alt: string }) => asset.alt).sort()).toEqual(
        Array.from({ length: 20 }, (_, i) => `n${i}`).sort(),
      );
      const manifest = JSON.parse(await readFile(path.join(assetsDir, 'burst', '.quire-assets.json'), 'utf8'));
      expect(Object.keys(manifest).sort()).toEqual([...names].sort());
      for (const response of responses) expect(manifest[response.json.filename].width).toBe(response.json.width);
    });
  });

  describe('serve', () => {
    it('serves the exact bytes with the exact type, long caching and nosniff; HEAD has no body', async () => {
      const bytes = png(6, 6, { rgb: [1, 2, 3] });
      const entry = await uploaded(bytes, 'served.png', { folder: 'serve' });
      const response = await raw(entry.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBeNull();
      expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);

      const head = await raw(entry.url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('image/png');
      expect(head.headers.get('content-length')).toBe(String(bytes.length));
      expect(head.headers.get('cache-control')).toBe(IMMUTABLE);
      expect(await head.text()).toBe('');
    });

    it('sandboxes SVG', async () => {
      const entry = await uploaded(svg(10, 10), 'active.svg', { folder: 'serve' });
      const response = await raw(entry.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml');
      expect(response.headers.get('content-security-policy')).toBe('sandbox');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('<svg');
    });

    it('streams a file near the size limit intact', async () => {
      const bytes = png(300, 200, { padding: MAX_BYTES - 2_000 });
      expect(bytes.length).toBeLessThan(MAX_BYTES);
      const entry = await uploaded(bytes, 'large.png', { folder: 'serve' });
      const response = await raw(entry.url);
      expect(response.headers.get('content-length')).toBe(String(bytes.length));
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it('works as the image URL of a page (prerendered in the production build)', async () => {
      const entry = await uploaded(png(8, 8), 'pic.png', { folder: 'gallery' });
      const page = await raw('/gallery');
      expect(page.status).toBe(200);
      const src = /<img src="([^"]+)"/.exec(await page.text())?.[1];
      expect(src).toBe(entry.url);
      const image = await raw(src!);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
    });

    it('answers 404 ASSET_NOT_FOUND for a missing file or a folder', async () => {
      for (const pathname of [`${SERVE}serve/nope.png`, `${SERVE}serve`]) {
        const response = await raw(pathname);
        expect(response.status, pathname).toBe(404);
        expect((await response.json()).error.code).toBe('ASSET_NOT_FOUND');
      }
    });
  });

  describe('folders, meta, move and delete', () => {
    it('lists folders and builds the folder tree with asset counts', async () => {
      await uploaded(png(2, 2), 'a1.png', { folder: 'tree/a' });
      await uploaded(png(2, 2), 'a2.png', { folder: 'tree/a' });
      await uploaded(png(2, 2), 'b1.png', { folder: 'tree/a/b' });
      expect((await client.post('/assets/folders', { body: { path: '/tree/empty' } })).status).toBe(201);

      const listing = await client.get('/assets/folders', { query: { path: '/tree' } });
      expect(listing.status).toBe(200);
      expect(listing.json).toEqual({
        assets: [],
        folders: [
          { name: 'a', path: '/tree/a' },
          { name: 'empty', path: '/tree/empty' },
        ],
      });
      const inA = await client.get('/assets/folders', { query: { path: 'tree/a/' } });
      expect(inA.json.assets.map((asset: { filename: string }) => asset.filename)).toEqual(['a1.png', 'a2.png']);
      expect(inA.json.folders).toEqual([{ name: 'b', path: '/tree/a/b' }]);

      const root = await client.get('/assets/folders');
      expect(root.json.folders.map((folder: { name: string }) => folder.name)).toEqual(
        expect.arrayContaining(['burst', 'photos', 'tree']),
      );
      expect(root.json.folders.map((folder: { name: string }) => folder.name)).not.toContain('escape');
      expect(root.json.folders.map((folder: { name: string }) => folder.name)).not.toContain('.quire-tmp');

      const { json } = await client.get('/assets/folder-tree');
      const tree = json.tree.find((node: { name: string }) => node.name === 'tree');
      expect(tree).toEqual({
        name: 'tree',
        path: '/tree',
        assetCount: 0,
        children: [
          {
            name: 'a',
            path: '/tree/a',
            assetCount: 2,
            children: [{ name: 'b', path: '/tree/a/b', assetCount: 1, children: [] }],
          },
          { name: 'empty', path: '/tree/empty', assetCount: 0, children: [] },
        ],
      });
      expect(json.tree.find((node: { name: string }) => node.name === 'burst').assetCount).toBe(20);
      expect(json.tree.map((node: { name: string }) => node.name)).not.toContain('escape');
    });

    it('creates folders (400 when one exists) that git will keep', async () => {
      const created = await client.post('/assets/folders', { body: { path: 'Fotos Ürlaub/2025' } });
      expect(created.status).toBe(201);
      expect(created.json.success).toBe(true);
      await stat(path.join(assetsDir, 'Fotos Ürlaub', '2025', '.quire-assets.json'));
      const again = await client.post('/assets/folders', { body: { path: '/Fotos Ürlaub/2025/' } });
      expect(again.status).toBe(400);
      expect(again.json.error.code).toBe('INVALID_REQUEST');
      for (const body of [{}, { path: '' }, { path: '/' }, { path: 'bad:name' }, { path: 'aux' }]) {
        const response = await client.post('/assets/folders', { body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.json.error.code).toBe('INVALID_REQUEST');
      }
      const missing = await client.get('/assets/folders', { query: { path: '/no/such/folder' } });
      expect(missing.status).toBe(404);
    });

    it('reads, edits and deletes metadata; DELETE removes the file too', async () => {
      const entry = await uploaded(png(4, 4), 'meta.png', { folder: 'meta', alt: 'first' });
      const read = await client.get('/assets/meta/meta/meta.png');
      expect(read.status).toBe(200);
      expect(read.json).toEqual(entry);

      const patched = await client.patch('/assets/meta/meta/meta.png', {
        body: { alt: 'second', tags: ['x', 'y', 'x'] },
      });
      expect(patched.status).toBe(200);
      expect(patched.json).toMatchObject({ alt: 'second', tags: ['x', 'y'], width: 4, originalName: 'meta.png' });
      const cleared = await client.patch('/assets/meta/meta/meta.png', { body: { alt: null } });
      expect(cleared.json.alt).toBeUndefined();
      expect(cleared.json.tags).toEqual(['x', 'y']);
      const invalid = await client.patch('/assets/meta/meta/meta.png', { body: { alt: 5 } });
      expect(invalid.status).toBe(400);

      for (const method of ['get', 'patch', 'delete'] as const) {
        const response = await client[method]('/assets/meta/meta/missing.png', {
          body: method === 'patch' ? { alt: 'x' } : undefined,
        });
        expect(response.status, method).toBe(404);
        expect(response.json.error.code).toBe('ASSET_NOT_FOUND');
      }

      const removed = await client.delete('/assets/meta/meta/meta.png');
      expect(removed.status).toBe(200);
      expect(removed.json).toEqual({ success: true });
      await expect(lstat(path.join(assetsDir, 'meta', 'meta.png'))).rejects.toThrow();
      const manifest = JSON.parse(await readFile(path.join(assetsDir, 'meta', '.quire-assets.json'), 'utf8'));
      expect(manifest['meta.png']).toBeUndefined();
      expect((await client.get('/assets/meta/meta/meta.png')).status).toBe(404);
      expect((await client.delete('/assets/meta/meta/meta.png')).status).toBe(404);
    });

    it('moves files with their metadata and counts only what moved', async () => {
      await uploaded(png(2, 2), 'mover.png', { folder: 'from', alt: 'moving' });
      await uploaded(png(2, 2), 'clash.png', { folder: 'from' });
      await uploaded(png(2, 2), 'clash.png', { folder: 'to' });
      const response = await client.post('/assets/move', {
        body: { filenames: ['mover.png', 'clash.png', 'ghost.png'], sourceFolder: '/from', targetFolder: '/to' },
      });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({ success: true, moved: 1 });
      expect((await client.get('/assets/meta/from/mover.png')).status).toBe(404);
      expect((await client.get('/assets/meta/to/mover.png')).json).toMatchObject({
        alt: 'moving',
        folder: '/to',
        path: 'to/mover.png',
      });
      expect((await client.get('/assets/meta/from/clash.png')).status).toBe(200);

      const toNew = await client.post('/assets/move', {
        body: { filenames: ['clash.png'], sourceFolder: 'from', targetFolder: 'brand/new' },
      });
      expect(toNew.json.moved).toBe(1);
      expect((await client.get('/assets/meta/brand/new/clash.png')).status).toBe(200);

      for (const body of [
        {},
        { filenames: [], sourceFolder: '/', targetFolder: '/to' },
        { filenames: ['x.png'], sourceFolder: '/nowhere', targetFolder: '/to' },
      ]) {
        const bad = await client.post('/assets/move', { body });
        expect(bad.status, JSON.stringify(body)).toBe(400);
        expect(bad.json.error.code).toBe('INVALID_REQUEST');
      }
    });

    it('shows files added and removed by hand (as after a git pull)', async () => {
      await mkdir(path.join(assetsDir, 'hand'), { recursive: true });
      await writeFile(path.join(assetsDir, 'hand', 'Dropped In.png'), png(9, 8));
      await writeFile(path.join(assetsDir, 'hand', 'notes.svg'), svg(3, 3));
      const list = await client.get('/assets');
      const dropped = list.json.assets.find((asset: { path: string }) => asset.path === 'hand/Dropped In.png');
      expect(dropped).toMatchObject({
        filename: 'Dropped In.png',
        originalName: 'Dropped In.png',
        mimeType: 'image/png',
        width: 9,
        height: 8,
        folder: '/hand',
        url: `${SERVE}hand/Dropped%20In.png`,
      });
      const served = await raw(dropped.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect((await raw(`${SERVE}hand/notes.svg`)).headers.get('content-security-policy')).toBe('sandbox');

      const edited = await client.patch('/assets/meta/hand/Dropped%20In.png', { body: { alt: 'by hand' } });
      expect(edited.status).toBe(200);
      expect(edited.json.alt).toBe('by hand');

      const uploadedEntry = await uploaded(png(2, 2), 'gone.png', { folder: 'hand' });
      await rm(path.join(assetsDir, 'hand', uploadedEntry.filename));
      await rm(path.join(assetsDir, 'hand', 'notes.svg'));
      const after = await client.get('/assets/folders', { query: { path: '/hand' } });
      expect(after.json.assets.map((asset: { filename: string }) => asset.filename)).toEqual(['Dropped In.png']);
      expect((await client.get(`/assets/meta/hand/${uploadedEntry.filename}`)).status).toBe(404);

      const all = await client.get('/assets');
      expect(all.status).toBe(200);
      expect(all.json.assets.some((asset: { path: string }) => asset.path.startsWith('escape'))).toBe(false);
      expect(JSON.stringify(all.json)).not.toContain('CANARY');
    });
  });

  describe('path safety', () => {
    const PARAM_PAYLOADS = [
      '..%2F..%2Foutside%2Fsecret.txt',
      '%2e%2e%2F%2e%2e%2Foutside%2Fsecret.txt',
      '%252e%252e%252f%252e%252e%252foutside%252fsecret.txt',
      '..%5C..%5Coutside%5Csecret.txt',
      'C:%5Coutside%5Csecret.txt',
      'secret.txt%00.png',
      'escape/secret.txt',
      'escape.png',
      '.quire-assets.json',
    ];
    const FOLDER_PAYLOADS = [
      '../../outside',
      '../outside',
      'a/../../outside',
      '%2e%2e/%2e%2e/outside',
      '%252e%252e%252foutside',
      '..\\..\\outside',
      'C:\\outside',
      'C:/outside',
      'x\u0000y',
      'escape',
      'escape/inner',
      '.quire-tmp',
    ];

    it('answers 400 INVALID_REQUEST to every traversal, and the canary stays unread and unchanged', async () => {
      const canaryBefore = await stat(canary);
      const outsideBefore = await filesUnder(outsideDir);
      const absolute = encodeURIComponent(canary);
      const checks: Array<{ label: string; run: () => Promise<{ status: number; text: string }> }> = [];

      for (const payload of [...PARAM_PAYLOADS, absolute]) {
        checks.push({ label: `GET meta ${payload}`, run: () => client.get(`/assets/meta/${payload}`) });
        checks.push({
          label: `PATCH meta ${payload}`,
          run: () => client.patch(`/assets/meta/${payload}`, { body: { alt: 'pwned' } }),
        });
        checks.push({ label: `DELETE meta ${payload}`, run: () => client.delete(`/assets/meta/${payload}`) });
        checks.push({ label: `GET usage ${payload}`, run: () => client.get(`/assets/usage/${payload}`) });
        checks.push({
          label: `GET serve ${payload}`,
          run: async () => {
            const r = await raw(`${SERVE}${payload}`);
            return { status: r.status, text: await r.text() };
          },
        });
        checks.push({
          label: `HEAD serve ${payload}`,
          run: async () => {
            const r = await raw(`${SERVE}${payload}`, { method: 'HEAD' });
            return { status: r.status, text: await r.text() };
          },
        });
      }
      for (const payload of [...FOLDER_PAYLOADS, `/${outsideDir}`]) {
        checks.push({
          label: `GET folders ${payload}`,
          run: () => client.get('/assets/folders', { query: { path: payload } }),
        });
        checks.push({
          label: `POST folders ${payload}`,
          run: () => client.post('/assets/folders', { body: { path: `${payload}/new` } }),
        });
        checks.push({
          label: `move from ${payload}`,
          run: () =>
            client.post('/assets/move', {
              body: { filenames: ['secret.txt'], sourceFolder: payload, targetFolder: '/' },
            }),
        });
        checks.push({
          label: `move to ${payload}`,
          run: () =>
            client.post('/assets/move', {
              body: { filenames: ['unicode-file.png'], sourceFolder: '/', targetFolder: payload },
            }),
        });
        checks.push({
          label: `upload into ${payload}`,
          run: () => upload(png(2, 2), 'intruder.png', { folder: payload }),
        });
        checks.push({
          label: `import into ${payload}`,
          run: () => client.post('/assets/import-url', { body: { url: origin.url('/cat.png'), folder: payload } }),
        });
      }
      for (const filename of [
        '../../outside/secret.txt',
        '..\\..\\outside\\secret.txt',
        '%2e%2e%2fsecret.txt',
        'escape/secret.txt',
        '',
        '.quire-assets.json',
      ]) {
        checks.push({
          label: `move filename ${filename}`,
          run: () =>
            client.post('/assets/move', { body: { filenames: [filename], sourceFolder: '/', targetFolder: '/moved' } }),
        });
      }

      const failures: string[] = [];
      for (const check of checks) {
        const { status, text } = await check.run();
        const isHead = check.label.startsWith('HEAD');
        const body = isHead ? undefined : JSON.parse(text || 'null');
        if (status !== 400 || (!isHead && body?.error?.code !== 'INVALID_REQUEST'))
          failures.push(`${check.label}: ${status} ${text.slice(0, 200)}`);
        if (text.includes('CANARY')) failures.push(`${check.label}: leaked the canary`);
      }
      expect(failures).toEqual([]);
      expect(await readFile(canary, 'utf8')).toBe(SECRET);
      const canaryAfter = await stat(canary);
      expect(canaryAfter.mtimeMs).toBe(canaryBefore.mtimeMs);
      expect(canaryAfter.ino).toBe(canaryBefore.ino);
      expect(await filesUnder(outsideDir)).toEqual(outsideBefore);
      expect((await lstat(path.join(assetsDir, 'escape'))).isSymbolicLink()).toBe(true);
      expect((await lstat(path.join(assetsDir, 'escape.png'))).isSymbolicLink()).toBe(true);
      expect(origin.hits).toEqual([]);
      // Nothing landed anywhere unexpected: no intruder, no stray folder named like a payload.
      expect(
        (await filesUnder(site.dir)).filter((file) => file.includes('intruder') || file.includes('pwned')),
      ).toEqual([]);
    });

    it('never moves a symlink', async () => {
      const response = await client.post('/assets/move', {
        body: { filenames: ['escape.png'], sourceFolder: '/', targetFolder: '/moved' },
      });
      expect(response.status).toBe(200);
      expect(response.json.moved).toBe(0);
      expect((await lstat(path.join(assetsDir, 'escape.png'))).isSymbolicLink()).toBe(true);
    });
  });

  describe('usage', () => {
    const url = (asset: string) => `${SERVE}${asset}`;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      await uploaded(png(2, 2), 'cat.png', { folder: 'zoo' });
      await uploaded(png(3, 3), 'bobcat.png', { folder: 'zoo' });
      const create = async (key: string, body: unknown) => {
        const response = await client.post('/content', { body });
        expect(response.status, response.text).toBe(201);
        ids[key] = response.json.id;
      };
      await create('home', {
        kind: 'page',
        site: 'web',
        collection: 'pages',
        type: 'visual',
        locales: {
          en: {
            pathname: '/zoo',
            meta: { title: 'Zoo', ogImage: url('zoo/cat.png'), description: `See ${url('zoo/cat.png')} today` },
            content: {
              visualData: {
                blocks: [
                  { type: 'image', src: url('zoo/bobcat.png') },
                  { type: 'text', text: 'cat.png' },
                  { type: 'image', src: url('zoo/cat.png') },
                ],
              },
            },
          },
        },
      });
      await create('story', {
        kind: 'page',
        site: 'web',
        collection: 'pages',
        type: 'mdx',
        locales: {
          en: {
            pathname: '/story',
            meta: { title: 'Story' },
            content: {
              mdx:
                `# Cats\n\n![A cat](${url('zoo/cat.png')} "Cat")\n\nMeet [Bob](${url('zoo/bobcat.png')}).\n\n` +
                `<img src="${url('zoo/cat.png')}" alt="again" />\n\n` +
                `Not a link: ${url('zoo/cat.png.bak')} or zoo/cat.png\n`,
            },
          },
        },
      });
      await create('settings', {
        kind: 'data',
        collection: 'settings',
        type: 'json',
        name: 'gallery',
        locales: {
          en: {
            meta: { title: 'Gallery' },
            content: {
              data: {
                gallery: { items: ['first', url('zoo/cat.png')] },
                'hero image': url('zoo/bobcat.png'),
                caption: `${url('zoo/cat.png')}!`,
              },
            },
          },
        },
      });
    });

    it('reports exact references with precise fields, never a look-alike', async () => {
      const cat = await client.get('/assets/usage/zoo/cat.png');
      expect(cat.status).toBe(200);
      expect(cat.json.usage).toEqual(
        [
          { page: ids.home, locale: 'en', field: 'meta.ogImage' },
          { page: ids.home, locale: 'en', field: 'content.visualData.blocks[2].src' },
          { page: ids.settings, locale: 'en', field: 'content.data.gallery.items[1]' },
          { page: ids.story, locale: 'en', field: 'content.mdx' },
        ].sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0)),
      );
      const bobcat = await client.get('/assets/usage/zoo/bobcat.png');
      expect(bobcat.json.usage).toEqual(
        [
          { page: ids.home, locale: 'en', field: 'content.visualData.blocks[0].src' },
          { page: ids.settings, locale: 'en', field: 'content.data["hero image"]' },
          { page: ids.story, locale: 'en', field: 'content.mdx' },
        ].sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0)),
      );
      const unused = await client.get('/assets/usage/unicode-file.png');
      expect(unused.json).toEqual({ usage: [] });
    });

    it('follows content edits', async () => {
      const etag = (await client.get(`/content/${ids.home}/en`)).json.localized.etag;
      const update = await client.put(`/content/${ids.home}`, {
        query: { locale: 'en', etag },
        body: { meta: { ogImage: null } },
      });
      expect(update.status, update.text).toBe(200);
      const cat = await client.get('/assets/usage/zoo/cat.png');
      expect(cat.json.usage.filter((use: { page: string }) => use.page === ids.home)).toEqual([
        { page: ids.home, locale: 'en', field: 'content.visualData.blocks[2].src' },
      ]);
    });
  });

  describe('import from a URL', () => {
    it('refuses loopback, private and odd targets by default, after DNS too, without connecting', async () => {
      origin.hits.length = 0;
      const targets = [
        origin.url('/cat.png'),
        `http://localhost:${origin.port}/cat.png`,
        `http://[::ffff:127.0.0.1]:${origin.port}/cat.png`,
        `http://[::1]:${origin.port}/cat.png`,
        `http://0.0.0.0:${origin.port}/cat.png`,
        `http://2130706433:${origin.port}/cat.png`,
        'http://169.254.169.254/latest/meta-data/',
        'http://100.64.0.1/x.png',
        'ftp://127.0.0.1/cat.png',
        'file:///etc/passwd',
        'not a url',
      ];
      for (const target of targets) {
        const response = await client.post('/assets/import-url', { body: { url: target } });
        expect(response.status, target).toBe(400);
        expect(response.json.error.code, target).toBe('ASSET_UPLOAD_FAILED');
        expect(response.json.error.details.reason, target).toEqual(expect.any(String));
      }
      const viaDns = await client.post('/assets/import-url', {
        body: { url: `http://localhost:${origin.port}/cat.png` },
      });
      expect(viaDns.json.error.message).toMatch(/localhost resolves to .* not a public address/);
      expect(origin.hits).toEqual([]);
      const missing = await client.post('/assets/import-url', { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.json.error.code).toBe('INVALID_REQUEST');
    });

    it('imports from a private address when importUrl.allowPrivateNetworks is set, with the same checks as uploads', async () => {
      const user = { 'x-test-user': 'ed@example.com' };
      const imported = await trusted.post('/assets/import-url', {
        headers: user,
        body: {
          url: origin.url('/cat.png'),
          folder: 'imports',
          alt: 'From afar',
          uploadedBy: 'someone-else@example.com',
        },
      });
      expect(imported.status, imported.text).toBe(201);
      expect(imported.json).toMatchObject({
        filename: 'cat.png',
        originalName: 'cat.png',
        mimeType: 'image/png',
        width: 5,
        height: 4,
        alt: 'From afar',
        uploadedBy: 'ed@example.com',
        folder: '/imports',
      });

      const redirected = await trusted.post('/assets/import-url', {
        headers: user,
        body: { url: origin.url('/redirect'), folder: 'imports' },
      });
      expect(redirected.status, redirected.text).toBe(201);
      expect(redirected.json.filename).toBe('cat-1.png');
      const jpeg = await trusted.post('/assets/import-url', { headers: user, body: { url: origin.url('/photo') } });
      expect(jpeg.json).toMatchObject({ filename: 'photo.jpg', mimeType: 'image/jpeg', width: 3, height: 2 });

      // import-url has one failure answer (docs/interface.md, "Assets"): 400 ASSET_UPLOAD_FAILED, with the reason in details.
      const refused: Array<[string, string | undefined]> = [
        ['/tool.png', 'invalid-format'],
        ['/big.png', 'too-large'],
        ['/loop', undefined],
        ['/missing.png', undefined],
      ];
      for (const [pathname, reason] of refused) {
        const response = await trusted.post('/assets/import-url', {
          headers: user,
          body: { url: origin.url(pathname) },
        });
        expect(response.status, pathname).toBe(400);
        expect(response.json.error.code, pathname).toBe('ASSET_UPLOAD_FAILED');
        expect(response.json.error.details.reason, pathname).toEqual(reason ?? expect.any(String));
      }
      const openAssets = path.join(open.contentRoot, 'assets');
      expect((await filesUnder(openAssets)).filter((file) => !file.startsWith('.quire-tmp'))).toEqual([
        '.quire-assets.json',
        'imports/.quire-assets.json',
        'imports/cat-1.png',
        'imports/cat.png',
        'photo.jpg',
      ]);
      expect((await filesUnder(path.join(openAssets, '.quire-tmp'))).filter((name) => name.endsWith('.part'))).toEqual(
        [],
      );
    });

    it('serves assets to visitors without an identity, while the rest of the API requires one', async () => {
      const anonymous = api(openServer.url);
      expect((await anonymous.get('/assets')).status).toBe(401);
      const served = await fetch(`${openServer.url}${SERVE}imports/cat.png`, { signal: AbortSignal.timeout(10_000) });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      // The uploader recorded is the verified identity, not the form field.
      const uploadedByForm = await upload(png(2, 2), 'mine.png', { uploadedBy: 'claimed@example.com' }, trusted, {
        'x-test-user': 'ed@example.com',
      });
      expect(uploadedByForm.json.uploadedBy).toBe('ed@example.com');
    });
  });
});
