import { QuireError } from '../errors.js';

/**
 * Reads a JSON request body without ever holding more than `limit` bytes: `astro dev` hands
 * over a buffered body, production @astrojs/node a stream, and both are cut off at the limit.
 * An empty body gives `undefined`.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
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
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new QuireError('INVALID_REQUEST', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

const tooLarge = (limit: number) =>
  new QuireError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes (limits.jsonBodyBytes).`, { limit });
