import type { Context } from 'hono';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers JSON the store already holds as text (kept answers): sent as is, not parsed and serialized again. */
export const jsonText = (c: Context, body: string) => c.body(body, 200, { 'content-type': JSON_TYPE });

/**
 * How many characters of items go into one chunk of a list answer: below V8's 128 KiB for a
 * string in its young generation, so each chunk is garbage that the next minor collection takes.
 */
const CHUNK_CHARS = 64 * 1024;
const HEAD = '{"items":[';

/**
 * Answers `{ items, total }` from each item's JSON text, sent a chunk at a time as the client takes
 * them: a list of any size costs the heap a chunk, never a string of the whole answer (1,000
 * distinct lists of 10k items built 568 MB of such strings, which V8 kept until a full collection).
 * The texts are ASCII only (as the store renders them), so the length is known up front.
 */
export function jsonItems(c: Context, items: readonly string[]) {
  const tail = `],"total":${items.length}}`;
  let bytes = HEAD.length + Math.max(0, items.length - 1) + tail.length;
  for (const item of items) bytes += item.length;
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const start = next;
      for (let size = 0; next < items.length && size < CHUNK_CHARS; next++) size += items[next]!.length + 1;
      let text = items.slice(start, next).join(',');
      if (start === 0) text = HEAD + text;
      else if (next > start) text = `,${text}`;
      if (next === items.length) text += tail;
      controller.enqueue(Buffer.from(text, 'latin1'));
      if (next === items.length) controller.close();
    },
  });
  return c.body(body, 200, { 'content-type': JSON_TYPE, 'content-length': String(bytes) });
}
