import type { ChangeFeed } from '../../events/feed.js';
import { changeStream } from '../../events/sse.js';
import type { API } from '../endpoints.js';
import type { AreaHandlers } from '../register.js';

export function eventHandlers(feed: ChangeFeed): AreaHandlers<typeof API.events> {
  return {
    subscribe: (_, c) => changeStream(feed, c.req.raw.signal),
  };
}
