import type { Context } from 'hono';

/** Answers JSON the store already holds as text (kept lists, kept answers): sent as is, not parsed and serialized again. */
export const jsonText = (c: Context, body: string) =>
  c.body(body, 200, { 'content-type': 'application/json; charset=utf-8' });
