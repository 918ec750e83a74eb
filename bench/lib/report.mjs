import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export function machineFacts(repoRoot) {
  const cpus = os.cpus();
  let commit = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 10_000,
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'routes', 'integration.ts'], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 10_000,
    }).trim();
    if (dirty) commit += ' (with uncommitted changes)';
  } catch {
    /* not a git checkout */
  }
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    commit,
  };
}

const met = (row) => (row.met === true ? 'yes' : row.met === false ? '**no**' : '—');
const ratio = (row) => (row.ratio === null ? '—' : `${row.ratio.toFixed(2)}×`);
const cell = (text) => String(text).replaceAll('|', '\\|');

/** What each measure does, in a sentence, for the notes under the table. */
const HOW = {
  'list-memory':
    '1,000 distinct valid `GET /content?…` queries (kind × site × type × published × localization × locales, a fixed ' +
    "pseudo-random order), one after another, right after the index was built; the server's VmRSS is sampled every " +
    '20 ms. The bound is the RSS before them plus the default answer-cache budget (`limits.cacheBytes`, 64 MB) plus 64 MB.',
  'read-locale':
    'autocannon, 1 connection, rotating over 100 pages × en/de/fr (inherited locales included); the floor rotates over constant bodies of the same sizes.',
  'list-filtered': 'one filtered list; the floor answers a constant body of the same size.',
  'needs-review': 'stale inherited German locales; floor of the same size.',
  untranslated: 'items with no German locale; floor of the same size.',
  'asset-usage': 'references to one image across all content; floor of the same size.',
  'cold-start':
    'spawn of the built server to the first complete answer of `GET /content?localization=one` (the ' +
    'index is built on the first request), against a plain Node script that reads every content file ' +
    'and parses it (JSON.parse; MDX front matter split and YAML-parsed), spawn to exit; medians.',
  writes:
    '8 autocannon connections, each PUTting one page with the ' +
    'etag of its previous answer; then every page file is read ' +
    "back from disk. The floor is 8 loops of the package's own atomic write (temp + fsync + rename) " +
    "on files of the same size in a plain Node process; the ratio is Quire's share of that rate (target: half of it).",
  'list-under-writes':
    'the filtered page list of `list-filtered` while 8 writers PUT continuously on 8 other www pages (the writes ' +
    "measure's way: each with the etag of its previous answer; every acknowledged write checked on disk afterwards). " +
    'The floor is a constant body of the same size from the same server, timed under the same writes, so that ' +
    'the load both sides share cancels out and what remains is the cost of keeping the list current.',
  'cold-start-stall':
    "`monitorEventLoopDelay` (5 ms resolution), enabled before the server's entry runs (`node --import`), read and reset " +
    'when the server first answers (what came before is its own boot: in the details), then after a first `GET /auth/user` ' +
    "(the API's modules load on the first API request) and after the first complete `GET /content?localization=one` " +
    '(which builds the index): the longer of those two stalls, each in the details.',
  'rss-steady':
    "the server's VmRSS after the whole read and write load (distinct lists, reads, git status, review, writes, the " +
    'list under writes) and 40 s idle (V8 gives back the heap it grew under load; the RSS as the load ended is in the label), ' +
    'against 2.5× (2× at 100k items) the bytes of the content files (locale files and assets under the content root, not .git).',
  'git-status':
    'sequential requests against native `git status --porcelain` (spawn to exit) on the content repo with 10 changed files; medians.',
  'git-status-stall':
    "`monitorEventLoopDelay` (5 ms resolution) in the server's own process, read and reset by an endpoint of the bench site " +
    'just before and just after each `GET /git/status` (the first, cold one included); the longest stall seen.',
  review:
    'the German locale of one page whose English file has 500 commits of history, reviewed near the start of it: the first ' +
    'call walks the history (isomorphic-git, first parents) and is reported apart; the median is of 30 calls after it, ' +
    'answered from the walk kept per (file, HEAD).',
  upload:
    "a real PNG streamed as multipart from a generator; the server's VmRSS is sampled every 20 ms; growth = peak − before.",
  'decap-list':
    'decap-server `entriesByFolder` on one markdown file per item against Quire `GET /content`; both list every entry.',
  'decap-read':
    'decap-server `getEntry` against `GET /content/:id/en`, rotating over the same 100 pages; informational.',
  'admin-list':
    "headless Chromium (the browser tests' one) opens the admin at `/__cms` in a fresh context (no cache, as a first visit), 1280×900, " +
    'which shows the pages of www; timed from the start of the navigation to the frame after the first rows and the item count are in the page; ' +
    "one warm-up, then p50 and max. The floor column is when the list's JSON had arrived in the same loads. Initial JS + CSS: the files the " +
    "page fetched (dist/admin/manifest.json's entry and stylesheet), gzipped at level 9; the server sends them uncompressed.",
};

/** How a size is written in file names and headings: 10000 → 10k. */
export const sizeLabel = (size) => (size % 1000 === 0 ? `${size / 1000}k` : String(size));

const figure = (row) =>
  row?.status === 'measured' ? (row.quire?.label ?? '—') : row ? `${row.status}: ${row.note ?? ''}` : '—';

/** One size's table, machine and memory, as a section of RESULTS.md. */
export function sizeSection(results) {
  const { machine, content, settings } = results;
  const lines = [
    `## ${sizeLabel(results.size)} items`,
    '',
    `${results.size} items × up to 3 locales — ${content.files} locale files ` +
      `(${content.pages} pages over 2 sites, ${content.fragments} MDX fragments, ${content.data} data entries; ` +
      `${content.inherited} inherited locales of which ${content.stale} stale, ${content.customized} customized), ` +
      `${content.assets} PNG assets; ${(content.bytes / 1024 / 1024).toFixed(1)} MB. ` +
      `Production build with @astrojs/node; load from autocannon in a separate process from the server.`,
    '',
    '| measure | floor | Quire | ratio | target | met? |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of results.measures) {
    if (row.status !== 'measured') {
      lines.push(
        `| ${cell(row.measure)} | — | ${cell(row.note ?? row.status)} | — | ${cell(row.target.text)} | ${row.status === 'failed' ? '**no**' : 'n/a'} |`,
      );
      continue;
    }
    lines.push(
      `| ${cell(row.measure)} | ${cell(row.floor?.label ?? '—')} | ${cell(row.quire?.label ?? '—')} ` +
        `| ${ratio(row)} | ${cell(row.target.text)} | ${met(row)} |`,
    );
  }
  lines.push(
    '',
    `### Machine (${sizeLabel(results.size)})`,
    '',
    `- CPU: ${machine.cpu}`,
    `- Cores: ${machine.cores}`,
    `- Memory: ${(machine.memoryBytes / 1024 ** 3).toFixed(1)} GiB`,
    `- Node: ${machine.node}`,
    `- OS: ${machine.os}`,
    `- Date: ${results.date}`,
    `- Size: ${results.size}`,
    `- Package: astro-quire ${results.packageVersion}${machine.commit ? ` at ${machine.commit}` : ''}`,
    `- Load: ${settings.duration} s per run, ${settings.rounds} alternating runs per side after a 0.5 s warm-up; ` +
      `${settings.coldStartRuns} cold starts; ${settings.gitRuns} git status runs; ${settings.adminRuns ?? 0} admin list loads`,
    ...(content.generationSeconds !== undefined
      ? [
          `- Content: generating it, git add and commit took ${content.generationSeconds} s` +
            (content.fromCache ? '; this run took it from the cache (bench/.work/content-cache)' : ''),
        ]
      : []),
    ...(results.phaseSeconds
      ? [
          `- Time per phase: ${Object.entries(results.phaseSeconds)
            .map(([name, seconds]) => `${name} ${seconds} s`)
            .join(', ')}`,
        ]
      : []),
    '',
    `### Server memory (VmRSS, ${sizeLabel(results.size)})`,
    '',
    ...Object.entries(results.serverRssMB ?? {}).map(([when, mb]) => `- ${when}: ${mb} MB`),
    '',
  );
  return lines;
}

/** Every measure's figure at each size, side by side. */
function sideBySide(runs) {
  const ids = [...new Set(runs.flatMap((results) => results.measures.map((row) => row.id)))];
  const lines = [
    '## Every measure by size',
    '',
    `| measure | target | ${runs.map((results) => `${sizeLabel(results.size)}: Quire | ratio | met?`).join(' | ')} |`,
    `|---|---|${runs.map(() => '---|---|---|').join('')}`,
  ];
  for (const id of ids) {
    const rows = runs.map((results) => results.measures.find((row) => row.id === id));
    const last = rows.findLast(Boolean);
    const cells = rows.map((row) =>
      row ? `${cell(figure(row))} | ${ratio(row)} | ${row.status === 'measured' ? met(row) : 'n/a'}` : '— | — | —',
    );
    lines.push(`| ${cell(last.measure)} | ${cell(last.target.text)} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  return lines;
}

/**
 * How each figure grows from one size to the next against the growth of the content: a cost
 * (time, memory) that grows by no more than the content is linear or better; for a rate (writes/s,
 * higher is better) the cost is its inverse.
 */
function growth(small, large) {
  const factor = large.size / small.size;
  const lines = [
    `## Growth from ${sizeLabel(small.size)} to ${sizeLabel(large.size)} (${factor}× the content)`,
    '',
    `| measure | ${sizeLabel(small.size)} | ${sizeLabel(large.size)} | figure grows | floor grows | ratio ${sizeLabel(small.size)} → ${sizeLabel(large.size)} | linear or better? |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const before of small.measures) {
    const after = large.measures.find((row) => row.id === before.id);
    if (!after) continue;
    const both = before.status === 'measured' && after.status === 'measured' && before.quire && after.quire;
    const times = (a, b) => (a && b ? `${(b / a).toFixed(2)}×` : '—');
    let verdict = '—';
    if (both && before.quire.value > 0 && after.quire.value > 0) {
      const higherIsBetter = after.target.kind === 'ratio-min';
      const cost = higherIsBetter ? before.quire.value / after.quire.value : after.quire.value / before.quire.value;
      verdict = cost <= 1.5 ? 'yes (flat)' : cost <= factor ? 'yes' : '**no** (worse than linear)';
    }
    lines.push(
      `| ${cell(after.measure)} | ${cell(figure(before))} | ${cell(figure(after))} ` +
        `| ${both ? times(before.quire.value, after.quire.value) : '—'} | ${both ? times(before.floor?.value, after.floor?.value) : '—'} ` +
        `| ${ratio(before)} → ${ratio(after)} | ${verdict} |`,
    );
  }
  lines.push('');
  return lines;
}

/** RESULTS.md from the results of every size run into the same folder, smallest first. */
export function renderMarkdown(runs) {
  const sorted = [...runs].sort((a, b) => a.size - b.size);
  const lines = [
    '# Quire benchmark results',
    '',
    'Every figure is compared with a floor measured in the same run. Read floors are a constant endpoint in the same server returning a body of the same size. ' +
      `Sizes run: ${sorted.map((results) => `**${sizeLabel(results.size)}** (${results.date.slice(0, 10)})`).join(', ')}; ` +
      'each size is its own run (`npm run bench -- --size 10k`, `--size 100k`), written to `results/<size>.json`.',
    '',
    ...sideBySide(sorted),
  ];
  for (let i = 1; i < sorted.length; i++) lines.push(...growth(sorted[i - 1], sorted[i]));
  if (sorted.length === 1)
    lines.push(
      'How each measure grows from one size to the next appears here once a second size is run into the same folder ' +
        '(`npm run bench -- --size 100k`).',
      '',
    );
  for (const results of sorted) lines.push(...sizeSection(results));
  const rows = new Map(sorted.flatMap((results) => results.measures.map((row) => [row.id, row])));
  lines.push(
    '## How each figure is measured',
    '',
    ...[...rows.values()].map((row) => `- **${row.measure}**: ${HOW[row.id] ?? ''}`),
    '',
    'Details (percentiles, sample counts, item counts, per-run times) are in `results/<size>.json`.',
    '',
  );
  return lines.join('\n');
}

/**
 * Writes this run's results as `results/<size>.json` in `outDir` (a results.json of the earlier
 * one-size layout is moved there first) and RESULTS.md from every size's results in the folder.
 */
export async function writeResults(outDir, results) {
  const folder = path.join(outDir, 'results');
  await fs.mkdir(folder, { recursive: true });
  const legacy = path.join(outDir, 'results.json');
  const earlier = await fs.readFile(legacy, 'utf8').catch(() => null);
  if (earlier) {
    const target = path.join(folder, `${sizeLabel(JSON.parse(earlier).size)}.json`);
    if (!(await fs.stat(target).catch(() => null))) await fs.rename(legacy, target);
  }
  await fs.writeFile(path.join(folder, `${sizeLabel(results.size)}.json`), `${JSON.stringify(results, null, 2)}\n`);
  const runs = [];
  for (const file of (await fs.readdir(folder)).filter((name) => name.endsWith('.json')).sort())
    runs.push(JSON.parse(await fs.readFile(path.join(folder, file), 'utf8')));
  await fs.writeFile(path.join(outDir, 'RESULTS.md'), renderMarkdown(runs));
}
