import { Hono } from 'hono';
import type { ChangeFeed } from '../../events/feed.js';
import { changeStream } from '../../events/sse.js';
import type { AppEnv } from '../app-env.js';

export function eventRoutes(feed: ChangeFeed) {
  return new Hono<AppEnv>().get('/', (c) => changeStream(feed, c.req.raw.signal));
}
