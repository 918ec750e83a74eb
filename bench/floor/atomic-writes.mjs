// The write floor: `writers` loops, each rewriting its own file of `bytes` bytes with
// write-file-atomic (temp file, fsync, rename: the primitive Quire's writes use), for `seconds`.
// Usage: node bench/floor/atomic-writes.mjs <dir> <seconds> <writers> <bytes>
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

const [dir, seconds, writers, bytes] = process.argv.slice(2);
await fs.mkdir(dir, { recursive: true });
const deadline = performance.now() + Number(seconds) * 1000;
const started = performance.now();
let writes = 0;
await Promise.all(Array.from({ length: Number(writers) }, async (_, writer) => {
  const file = path.join(dir, `writer-${writer}.json`);
  for (let n = 0; performance.now() < deadline; n++) {
    const text = `{"writer":${writer},"n":${n},"pad":"${'x'.repeat(Math.max(0, Number(bytes) - 40))}"}\n`;
    await writeFileAtomic(file, text);
    writes++;
  }
}));
const elapsed = (performance.now() - started) / 1000;
await fs.rm(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ writes, seconds: elapsed })}\n`);
