// The write floor: `writers` loops, each rewriting its own file of `bytes` bytes with the
// package's own atomic write (temp file, fsync, rename: what every Quire write does), for `seconds`.
// Usage: node bench/floor/atomic-writes.mjs <dir> <seconds> <writers> <bytes> <package dir>
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, seconds, writers, bytes, packageDir] = process.argv.slice(2);
const { writeFileAtomic } = await import(pathToFileURL(path.join(packageDir, 'dist/src/util/atomic-write.js')).href);
await fs.mkdir(dir, { recursive: true });
const deadline = performance.now() + Number(seconds) * 1000;
const started = performance.now();
let writes = 0;
await Promise.all(
  Array.from({ length: Number(writers) }, async (_, writer) => {
    const file = path.join(dir, `writer-${writer}.json`);
    for (let n = 0; performance.now() < deadline; n++) {
      const text = `{"writer":${writer},"n":${n},"pad":"${'x'.repeat(Math.max(0, Number(bytes) - 40))}"}\n`;
      await writeFileAtomic(file, text);
      writes++;
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
await fs.rm(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ writes, seconds: elapsed })}\n`);
