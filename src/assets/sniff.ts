import fs from 'node:fs/promises';

/** How much of a file the SVG check reads: enough for a long XML prolog and comments. */
const SVG_PROBE_BYTES = 64 * 1024;

export interface Sniffed {
  mimeType: string;
  ext: string;
}

/**
 * The format of a file from its bytes. file-type knows the binary formats (JPEG, PNG, GIF, WebP,
 * AVIF, ICO, PDF, executables...), but not SVG: it is text, found by an explicit check that it is
 * an XML document whose root element is `<svg>`. Undefined when nothing recognises the bytes.
 */
export async function sniffFile(filePath: string): Promise<Sniffed | undefined> {
  // Loaded by the first upload: with its dependencies, ~30 ms that the API's first request would otherwise wait.
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(filePath);
  if (detected && detected.mime !== 'application/xml') return { mimeType: detected.mime, ext: detected.ext };
  if (await isSvgFile(filePath)) return { mimeType: 'image/svg+xml', ext: 'svg' };
  return detected ? { mimeType: detected.mime, ext: detected.ext } : undefined;
}

async function isSvgFile(filePath: string): Promise<boolean> {
  const handle = await fs.open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(SVG_PROBE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SVG_PROBE_BYTES, 0);
    return isSvgText(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

const PROLOG = [/^\s+/, /^<\?xml[^>]*\?>/, /^<!--[\s\S]*?-->/, /^<!DOCTYPE\s+svg[^[>]*(\[[\s\S]*?\])?\s*>/i];

/** UTF-8 text whose first element, after the XML declaration, comments and doctype, is `<svg`. */
export function isSvgText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  let text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
  for (let changed = true; changed; ) {
    changed = false;
    for (const pattern of PROLOG) {
      const match = pattern.exec(text);
      if (match && match[0].length > 0) {
        text = text.slice(match[0].length);
        changed = true;
      }
    }
  }
  return /^<svg[\s>/]/.test(text);
}
