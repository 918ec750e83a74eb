// The cold-start floor: read and parse every content file under a content root, nothing else.
// JSON files with JSON.parse; MDX files split at their front matter, the YAML parsed.
// Usage: node bench/floor/parse-all.mjs <contentRoot> [--no-yaml]
import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';

const [root, flag] = process.argv.slice(2);
const parseYaml = flag !== '--no-yaml';
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n?---(?:\r?\n|$)/;

async function walk(folder, files) {
  for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || (folder === root && entry.name === 'assets')) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) await walk(full, files);
    else if (entry.name.endsWith('.json') || entry.name.endsWith('.mdx')) files.push(full);
  }
  return files;
}

const files = await walk(root, []);
let bytes = 0;
const parsed = [];
for (let start = 0; start < files.length; start += 64) {
  await Promise.all(
    files.slice(start, start + 64).map(async (file) => {
      const text = await fs.readFile(file, 'utf8');
      bytes += text.length;
      if (file.endsWith('.json')) {
        parsed.push(JSON.parse(text));
      } else {
        const match = FRONT_MATTER.exec(text);
        const header = match ? (parseYaml ? YAML.parse(match[1]) : match[1]) : {};
        parsed.push({ header, body: match ? text.slice(match[0].length) : text });
      }
    }),
  );
}
process.stdout.write(`${JSON.stringify({ files: parsed.length, bytes })}\n`);
