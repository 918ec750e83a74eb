import { config } from '../state/session.js';

/** Meta and block field names that hold an asset by convention (e.g. `ogImage`, `heroImage`, `logo`). */
const ASSET_NAME = /(image|img|photo|picture|logo|icon|thumbnail|cover|banner|avatar|poster|asset|media|video|file)$/i;

/** Whether a field holds an asset URL: its value is one of the library's serve URLs, or its name says so. */
export function holdsAsset(name: string, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  return value.startsWith(`${config.apiPrefix}/assets/serve/`) || ASSET_NAME.test(name);
}

/** Markdown for an image: its alt text from the asset's meta (brackets escaped), its serve URL. */
export function markdownImage(alt: string | undefined, url: string): string {
  const text = (alt ?? '').replace(/([[\]\\])/g, '\\$1').replace(/\s+/g, ' ');
  return `![${text}](${url.replace(/[()\s]/g, encodeURIComponent)})`;
}
