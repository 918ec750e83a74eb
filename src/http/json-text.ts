import type { Context } from 'hono';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers JSON the store already holds as text (kept answers): sent as is, not parsed and serialized again. */
export const jsonText = (c: Context, body: string) => c.body(body, 200, { 'content-type': JSON_TYPE });

const HEAD = '{"items":[';
const COMMA = ','.charCodeAt(0);

/**
 * Answers `{ items, total }` from each item's JSON text, copied into one buffer of the answer's
 * size: the JavaScript heap never holds a string of the whole answer (1,000 distinct lists of 10k
 * items built 568 MB of such strings, which V8 kept until a full collection), and the answer goes
 * out in one write, as a constant body would. The texts are ASCII only (as the store renders
 * them), so each character is one byte and the size is known before copying.
 */
export function jsonItems(c: Context, items: readonly string[]) {
  const tail = `],"total":${items.length}}`;
  let bytes = HEAD.length + Math.max(0, items.length - 1) + tail.length;
  for (const item of items) bytes += item.length;
  const body = Buffer.allocUnsafe(bytes);
  let at = body.write(HEAD, 0, 'latin1');
  items.forEach((item, position) => {
    if (position > 0) body[at++] = COMMA;
    at += body.write(item, at, 'latin1');
  });
  body.write(tail, at, 'latin1');
  // As a stream: a Response given the buffer itself copies it.
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(body);
      controller.close();
    },
  });
  return c.body(stream, 200, { 'content-type': JSON_TYPE, 'content-length': String(bytes) });
}
