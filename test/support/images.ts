import zlib from 'node:zlib';

/** Real image bytes made in the test, so format sniffing and measuring see what a browser would send. */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid truecolour PNG of the given size, filled with one colour; `padding` adds an ancillary text chunk to make it larger. */
export function png(
  width: number,
  height: number,
  options: { rgb?: [number, number, number]; padding?: number } = {},
): Buffer {
  const [r, g, b] = options.rgb ?? [200, 30, 30];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const chunks = [pngChunk('IHDR', header), pngChunk('IDAT', pixels)];
  if (options.padding)
    chunks.push(pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(options.padding, 'x')])));
  chunks.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]);
}

/** A 3×2 baseline JPEG. */
export const JPEG_3x2 = Buffer.from(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBD' +
    'ARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAMD' +
    'ASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAA' +
    'BAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCAAArX/9k=',
  'base64',
);

/** A 1×1 GIF89a. */
export const GIF_1x1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A 4×3 lossy WebP. */
export const WEBP_4x3 = Buffer.from(
  'UklGRjoAAABXRUJQVlA4IC4AAACwAQCdASoEAAMAAUAmJaACdLoABDAAAP77VeP/hTX/hTX/hTX/CmvoUbKJfMAA',
  'base64',
);

/** An SVG document with an XML declaration, a comment and a script (which the sandbox header must neutralise). */
export function svg(width: number, height: number): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<!-- made in the test -->
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <script>alert(document.domain)</script>
  <rect width="${width}" height="${height}" fill="teal"/>
</svg>
`);
}

/** A one-image ICO whose image is a 16×16 PNG. */
export function ico(): Buffer {
  const image = png(16, 16);
  const header = Buffer.from([0, 0, 1, 0, 1, 0]);
  const entry = Buffer.alloc(16);
  entry.set([16, 16, 0, 0], 0);
  entry.writeUInt16LE(1, 4); // planes
  entry.writeUInt16LE(32, 6); // bits per pixel
  entry.writeUInt32LE(image.length, 8);
  entry.writeUInt32LE(22, 12);
  return Buffer.concat([header, entry, image]);
}

/** A minimal PDF. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

/** The start of a 64-bit Linux executable: what an attacker would rename to `.png`. */
export const ELF = Buffer.concat([
  Buffer.from('7f454c4602010100000000000000000002003e00', 'hex'),
  Buffer.alloc(200, 0x90),
]);
