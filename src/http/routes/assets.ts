import type { Context } from 'hono';
import type { AssetLibrary } from '../../assets/index.js';
import type { AppEnv } from '../app-env.js';
import type { API } from '../endpoints.js';
import { jsonText } from '../json-text.js';
import type { AreaHandlers } from '../register.js';

/** The verified identity's e-mail wins over what the client says. */
const uploader = (c: Context<AppEnv>, claimed: string | undefined) =>
  c.get('identity')?.email ?? (claimed?.trim() || undefined);

export function assetHandlers(assets: AssetLibrary): AreaHandlers<typeof API.assets> {
  return {
    serve: async ({ params }, c) => {
      const file = await assets.open(params.path, c.req.method !== 'HEAD');
      const headers: Record<string, string> = {
        'content-type': file.mimeType,
        'content-length': String(file.size),
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      };
      // SVG and anything else that could run script in the site's origin when opened directly.
      if (file.active) headers['content-security-policy'] = 'sandbox';
      return new Response(file.body ?? null, { status: 200, headers });
    },
    list: async (_, c) => c.json({ assets: await assets.list() }),
    folder: async ({ query }, c) => c.json(await assets.folder(query.path)),
    createFolder: async ({ body }, c) => {
      const created = await assets.createFolder(body.path);
      return c.json({ success: true, path: created.path }, 201);
    },
    folderTree: async (_, c) => c.json({ tree: await assets.folderTree() }),
    meta: async ({ params }, c) => c.json(await assets.meta(params.path)),
    updateMeta: async ({ params, body }, c) => c.json(await assets.updateMeta(params.path, body)),
    delete: async ({ params }, c) => {
      await assets.remove(params.path);
      return c.json({ success: true });
    },
    usage: async ({ params }, c) => jsonText(c, await assets.usageJson(params.path)),
    // Multipart, streamed to disk by the library; its text fields are validated once read.
    upload: async ({ body: parseFields }, c) => {
      const received = await assets.receiveUpload(c.req.raw.body, c.req.header('content-type'));
      try {
        const fields = parseFields(received.fields);
        const entry = await assets.addUpload(received, { ...fields, uploadedBy: uploader(c, fields.uploadedBy) });
        return c.json(entry, 201);
      } finally {
        await assets.discard(received);
      }
    },
    importUrl: async ({ body: { url, ...info } }, c) => {
      const entry = await assets.importUrl(url, { ...info, uploadedBy: uploader(c, info.uploadedBy) });
      return c.json(entry, 201);
    },
    move: async ({ body: { filenames, sourceFolder, targetFolder } }, c) => {
      const { moved, skipped } = await assets.move(filenames, sourceFolder, targetFolder);
      return c.json({ success: true, moved, skipped });
    },
  };
}
