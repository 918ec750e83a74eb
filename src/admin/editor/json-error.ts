/**
 * Where a JSON text stops being valid, in words with line and column, or undefined when it parses.
 * Engines word and place `JSON.parse` errors differently (some name no position at all), so the
 * place comes from a small scan of our own; the engine's words, without its position, say what.
 */
export function jsonError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const offset = Math.max(0, invalidOffset(text));
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const what = (error as Error).message
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/\s*in JSON at position \d+.*$/, '')
      .replace(/, ".*" is not valid JSON$/s, '')
      .replace(/^JSON(?:\.parse| Parse error):?\s*/i, '')
      .replace(/ at line \d+ column \d+ of the JSON data$/, '');
    return `${what} at line ${line}, column ${column}`;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** The offset of the first character that makes `text` invalid JSON (RFC 8259), or -1 when it is valid. */
export function invalidOffset(text: string): number {
  let at = 0;
  const fail = (): never => {
    throw new InvalidAt(at);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const expect = (char: string) => {
    if (text[at] === char) at++;
    else fail();
  };
  const word = (literal: string) => {
    for (const char of literal) expect(char);
  };
  const string = () => {
    expect('"');
    while (at < text.length) {
      const char = text[at]!;
      if (char === '"') {
        at++;
        return;
      }
      if (char < ' ') fail();
      if (char !== '\\') {
        at++;
        continue;
      }
      at++;
      if (text[at] === 'u') {
        HEX4.lastIndex = at + 1;
        if (!HEX4.test(text)) fail();
        at += 5;
      } else if ('"\\/bfnrt'.includes(text[at] ?? 'x')) at++;
      else fail();
    }
    fail();
  };
  const list = (close: string, member: () => void) => {
    at++;
    space();
    if (text[at] === close) {
      at++;
      return;
    }
    for (;;) {
      member();
      space();
      if (text[at] !== ',') {
        expect(close);
        return;
      }
      at++;
      space();
    }
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') {
      list('}', () => {
        string();
        space();
        expect(':');
        value();
      });
    } else if (char === '[') list(']', value);
    else if (char === '"') string();
    else if (char === 't') word('true');
    else if (char === 'f') word('false');
    else if (char === 'n') word('null');
    else {
      NUMBER.lastIndex = at;
      if (!NUMBER.test(text)) fail();
      at = NUMBER.lastIndex;
    }
  };
  try {
    value();
    space();
    if (at < text.length) fail();
    return -1;
  } catch (error) {
    if (error instanceof InvalidAt) return error.offset;
    throw error;
  }
}

class InvalidAt {
  constructor(readonly offset: number) {}
}
