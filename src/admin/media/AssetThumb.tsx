import type { AssetEntry } from '../../client/index.js';

/** What kind of file it is, in a word, for the icon and for screen readers. */
export function kindOf(mimeType: string): string {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType === 'application/pdf') return 'PDF';
  if (mimeType.startsWith('font/')) return 'font';
  return 'file';
}

const ICONS: Record<string, string> = { video: '🎞', audio: '🎵', PDF: '📄', font: '🔤', file: '📦' };

/** Images through the serve URL (lazy, so a big folder loads what is on screen); an icon per type otherwise. */
export function AssetThumb({ asset }: { asset: AssetEntry }) {
  const kind = kindOf(asset.mimeType);
  if (kind === 'image') return <img class="thumb" src={asset.url} alt="" loading="lazy" decoding="async" />;
  return (
    <span class="thumb thumb--icon" aria-hidden="true">
      {ICONS[kind] ?? '🖼'}
    </span>
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
