/**
 * Types that cannot run script in the site's origin when opened directly. Anything else (SVG, HTML,
 * XML, unknown types of files added by hand) is served with `Content-Security-Policy: sandbox`.
 * PDF is left out of the sandbox: browsers show it in their own isolated viewer, and Chrome
 * refuses to show a PDF under a sandbox policy at all.
 */
const PASSIVE = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/bmp',
  'image/tiff',
  'image/heic',
  'image/heif',
  'image/jxl',
  'application/pdf',
]);

export const isActiveContent = (mimeType: string) =>
  !(
    PASSIVE.has(mimeType) ||
    mimeType.startsWith('audio/') ||
    mimeType.startsWith('video/') ||
    mimeType.startsWith('font/')
  );
