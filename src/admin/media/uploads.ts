import { signal } from '@preact/signals';
import type { AssetEntry } from '../../client/index.js';
import { client } from '../state/session.js';

/** One file of an upload, as the queue shows it. */
export interface Upload {
  key: number;
  name: string;
  size: number;
  /** Bytes sent so far. */
  sent: number;
  state: 'sending' | 'done' | 'failed';
  error?: unknown;
  asset?: AssetEntry;
}

export const uploads = signal<Upload[]>([]);
let nextKey = 0;

function update(key: number, change: Partial<Upload>) {
  uploads.value = uploads.value.map((upload) => (upload.key === key ? { ...upload, ...change } : upload));
}

/**
 * Sends each file on its own request, all at once, so that a refused file (too large, a format
 * not allowed) fails alone and the others go on. Resolves when every file has an outcome.
 */
export async function uploadFiles(files: readonly File[], folder: string): Promise<AssetEntry[]> {
  const started = files.map((file) => ({ file, key: nextKey++ }));
  uploads.value = [
    ...started.map(({ file, key }) => ({ key, name: file.name, size: file.size, sent: 0, state: 'sending' as const })),
    ...uploads.value,
  ];
  const outcomes = await Promise.all(
    started.map(async ({ file, key }) => {
      try {
        const asset = await client.assets.upload(
          file,
          { folder },
          { onProgress: (loaded) => update(key, { sent: Math.min(loaded, file.size) }) },
        );
        update(key, { state: 'done', sent: file.size, asset });
        return asset;
      } catch (error) {
        update(key, { state: 'failed', error });
        return undefined;
      }
    }),
  );
  return outcomes.filter((asset) => asset !== undefined);
}

export function clearFinished() {
  uploads.value = uploads.value.filter((upload) => upload.state === 'sending');
}
