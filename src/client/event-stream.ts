/** One Server-Sent Events message: its `event` name (`message` when unnamed) and its joined `data` lines. */
export interface StreamMessage {
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` body to its end, calling `onMessage` per message (the SSE format:
 * `field: value` lines, a blank line ends a message, lines starting with `:` are comments).
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: StreamMessage) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      // A trailing \r may be the first half of \r\n: it waits for the next chunk.
      const held = buffer.endsWith('\r') ? '\r' : '';
      const lines = (held ? buffer.slice(0, -1) : buffer).split(/\r\n|\r|\n/);
      // The last piece is a line still arriving.
      buffer = lines.pop()! + held;
      for (const text of lines) line(text);
    }
  } finally {
    reader.releaseLock();
  }
}
