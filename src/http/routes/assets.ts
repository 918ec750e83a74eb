import { Hono, type Context } from 'hono';
import type * as v from 'valibot';
import type { AssetLibrary } from '../../assets/index.js';
import { QuireError } from '../../errors.js';
import type { AppEnv } from '../app-env.js';
import { readJsonBody } from '../json-body.js';
import {
  CreateFolderSchema, FolderQuerySchema, ImportUrlSchema, MetaPatchSchema, MoveSchema, UploadFieldsSchema,
} from '../schemas/assets.js';
import { parseInput } from '../validate.js';

type Ctx = Context<AppEnv>;

/** The assets table answers 400 INVALID_REQUEST for a missing field too (not MISSING_REQUIRED_FIELD). */
function parseAssetInput<const S extends v.GenericSchema>(schema: S, input: unknown, what: string): v.InferOutput<S> {
  try {
    return parseInput(schema, input, what);
  } catch (error) {
    if (error instanceof QuireError && error.code === 'MISSING_REQUIRED_FIELD') throw new QuireError('INVALID_REQUEST', error.message, error.details);
    throw error;
  }
}

/** The verified identity's e-mail wins over what the client says. */
const uploader = (c: Ctx, claimed: string | undefined) => c.get('identity')?.email ?? (claimed?.trim() || undefined);

/** `/assets/serve/*`: public, so pages can show their images to visitors who have no gateway identity. */
export function assetServeRoutes(assets: AssetLibrary) {
  return new Hono<AppEnv>().get('/serve/:path{.+}', async (c) => {
    const file = await assets.open(c.req.param('path'), c.req.method !== 'HEAD');
    const headers: Record<string, string> = {
      'content-type': file.mimeType,
      'content-length': String(file.size),
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    };
    // SVG and anything else that could run script in the site's origin when opened directly.
    if (file.active) headers['content-security-policy'] = 'sandbox';
    return new Response(file.body ?? null, { status: 200, headers });
  });
}

/** Every other asset endpoint (behind the identity check). `:path{.+}` takes paths with subfolders. */
export function assetRoutes(assets: AssetLibrary, limits: { jsonBodyBytes: number }) {
  const body = (c: Ctx) => readJsonBody(c.req.raw, limits.jsonBodyBytes);

  return new Hono<AppEnv>()
    .get('/', async (c) => c.json({ assets: await assets.list() }))
    .get('/folders', async (c) => {
      const { path } = parseAssetInput(FolderQuerySchema, c.req.query(), 'query');
      return c.json(await assets.folder(path));
    })
    .post('/folders', async (c) => {
      const { path } = parseAssetInput(CreateFolderSchema, await body(c), 'body');
      const created = await assets.createFolder(path);
      return c.json({ success: true, path: created.path }, 201);
    })
    .get('/folder-tree', async (c) => c.json({ tree: await assets.folderTree() }))
    .get('/meta/:path{.+}', async (c) => c.json(await assets.meta(c.req.param('path'))))
    .patch('/meta/:path{.+}', async (c) => {
      const change = parseAssetInput(MetaPatchSchema, (await body(c)) ?? {}, 'body');
      return c.json(await assets.updateMeta(c.req.param('path'), change));
    })
    .delete('/meta/:path{.+}', async (c) => {
      await assets.remove(c.req.param('path'));
      return c.json({ success: true });
    })
    .get('/usage/:path{.+}', async (c) => c.json({ usage: await assets.usage(c.req.param('path')) }))
    // Multipart, streamed to disk by the library: never read through readJsonBody.
    .post('/upload', async (c) => {
      const received = await assets.receiveUpload(c.req.raw.body, c.req.header('content-type'));
      try {
        const fields = parseAssetInput(UploadFieldsSchema, received.fields, 'form');
        const entry = await assets.addUpload(received, { ...fields, uploadedBy: uploader(c, fields.uploadedBy) });
        return c.json(entry, 201);
      } finally {
        await assets.discard(received);
      }
    })
    .post('/import-url', async (c) => {
      const { url, ...info } = parseAssetInput(ImportUrlSchema, await body(c), 'body');
      const entry = await assets.importUrl(url, { ...info, uploadedBy: uploader(c, info.uploadedBy) });
      return c.json(entry, 201);
    })
    .post('/move', async (c) => {
      const { filenames, sourceFolder, targetFolder } = parseAssetInput(MoveSchema, await body(c), 'body');
      const { moved, skipped } = await assets.move(filenames, sourceFolder, targetFolder);
      return c.json({ success: true, moved, skipped });
    });
}
