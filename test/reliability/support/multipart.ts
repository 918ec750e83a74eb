import { randomBytes } from 'node:crypto';

export interface Part {
  name: string;
  /** A text field's value. */
  value?: string;
  /** A file part: its name, declared type and bytes. */
  filename?: string;
  type?: string;
  data?: Buffer;
}

/** A multipart/form-data body built by hand, so tests can cut it short, repeat parts or lie about types. */
export function multipart(
  parts: Part[],
  boundary = `----quire${randomBytes(8).toString('hex')}`,
): { body: Buffer; contentType: string; boundary: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const type = part.filename !== undefined ? `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n` : '';
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`;
    chunks.push(Buffer.from(head), part.data ?? Buffer.from(part.value ?? ''), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}`, boundary };
}
