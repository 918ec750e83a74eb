import { QuireError } from '../errors.js';

/** `application/json`, or a `+json` type, with any parameters. */
const JSON_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * How much of a refused body is still read (and thrown away) before the answer. Node closes the
 * connection after an answer to a body it has not read, and the client, still sending, often gets
 * a reset instead of the 413. Past this many bytes nobody is making an honest mistake.
 */
const DISCARD_BYTES = 64 * 1024 * 1024;

/**
 * Reads a JSON request body without ever holding more than `limit` bytes: `astro dev` hands
 * over a buffered body, production @astrojs/node a stream, and both are cut off at the limit.
 * An empty body gives `undefined`; a body of another content type is UNSUPPORTED_MEDIA_TYPE.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    if (request.body) await discard(request.body.getReader());
    throw tooLarge(limit);
  }
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await discard(reader);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new QuireError('INVALID_REQUEST', 'The request body is not valid UTF-8 text.');
  }
  if (text.trim() === '') return undefined;
  // Only what the document allows: a body sent as another type is refused, not guessed at. No type at all is read as JSON.
  const type = request.headers.get('content-type');
  if (type !== null && !JSON_TYPE.test(type)) {
    throw new QuireError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body must be JSON (Content-Type: application/json), not ${type.split(';')[0]}.`,
      {
        contentType: type,
      },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new QuireError('INVALID_REQUEST', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  checkShape(value);
  return value;
}

/** Deeper than any content an editor makes, and shallow enough for every recursive step after (hashing, YAML). */
export const MAX_JSON_DEPTH = 200;

/**
 * Refuses what no client needs and some code downstream could trip over: nesting deeper than
 * MAX_JSON_DEPTH (recursive serializers would overflow the stack), and the prototype-pollution
 * keys `__proto__` and `constructor.prototype` (as secure-json-parse does). Walks without recursion.
 */
function checkShape(root: unknown): void {
  interface Node {
    value: unknown;
    depth: number;
    parent?: Node;
    key?: string | number;
  }
  const pathOf = (node: Node, key?: string): string => {
    const keys: Array<string | number> = key === undefined ? [] : [key];
    for (let at: Node | undefined = node; at?.parent; at = at.parent) keys.unshift(at.key!);
    return keys.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
  };
  const stack: Node[] = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value, depth } = node;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_JSON_DEPTH) {
      throw new QuireError('INVALID_REQUEST', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`, {
        field: pathOf(node),
        limit: MAX_JSON_DEPTH,
      });
    }
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        if (typeof value[index] === 'object' && value[index] !== null)
          stack.push({ value: value[index], depth: depth + 1, parent: node, key: index });
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (
        key === '__proto__' ||
        (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype'))
      ) {
        throw new QuireError(
          'INVALID_REQUEST',
          `The request body has the key "${pathOf(node, key)}", which is not allowed (prototype pollution).`,
          { field: pathOf(node, key) },
        );
      }
      if (typeof child === 'object' && child !== null)
        stack.push({ value: child, depth: depth + 1, parent: node, key });
    }
  }
}

/** Reads the rest of a refused body, up to DISCARD_BYTES, so the client is done sending when the answer comes. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    for (let read = 0; read <= DISCARD_BYTES; ) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nobody is left to answer.
  }
}

const tooLarge = (limit: number) =>
  new QuireError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes (limits.jsonBodyBytes).`, {
    limit,
  });
