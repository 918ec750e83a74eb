import type { ChangeFeed } from './feed.js';

const HEARTBEAT_MS = 15_000;
/** A client this far behind (it stopped reading) is dropped; it reconnects and refreshes. */
const MAX_QUEUED_BYTES = 1024 * 1024;

const encoder = new TextEncoder();

/**
 * A Server-Sent Events stream of the feed: `event: ready` first, then `event: change` per change,
 * and a `: ping` comment every 15 s so that proxies keep the connection open. The listener and
 * the timer go when the client disconnects (the request's signal) or stops reading (cancel).
 */
export function changeStream(feed: ChangeFeed, signal: AbortSignal): Response {
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let stopped = false;
        const send = (text: string) => {
          if (stopped) return;
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) return stop();
          controller.enqueue(encoder.encode(text));
        };
        const off = feed.onChange((event) => send(`event: change\ndata: ${JSON.stringify(event)}\n\n`));
        const heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
        stop = () => {
          if (stopped) return;
          stopped = true;
          off();
          clearInterval(heartbeat);
          signal.removeEventListener('abort', stop);
          try {
            controller.close();
          } catch {
            // Already cancelled by the reader.
          }
        };
        signal.addEventListener('abort', stop, { once: true });
        // `retry`: how long a browser's EventSource waits before reconnecting.
        send('retry: 2000\nevent: ready\ndata: {}\n\n');
        if (signal.aborted) stop();
      },
      cancel: () => stop(),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 16 * 1024 }),
  );
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // Nginx and similar proxies would otherwise hold the events back in a buffer.
      'x-accel-buffering': 'no',
    },
  });
}
