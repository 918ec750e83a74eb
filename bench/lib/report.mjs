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
    "on files of the same size in a plain Node process; the ratio is Quire's share of that rate.",
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

export function renderMarkdown(results) {
  const { machine, content, settings } = results;
  const lines = [
    '# Quire benchmark results',
    '',
    `Size **${results.size}** items × up to 3 locales — ${content.files} locale files ` +
      `(${content.pages} pages over 2 sites, ${content.fragments} MDX fragments, ${content.data} data entries; ` +
      `${content.inherited} inherited locales of which ${content.stale} stale, ${content.customized} customized), ` +
      `${content.assets} PNG assets; ${(content.bytes / 1024 / 1024).toFixed(1)} MB. ` +
      `Production build with @astrojs/node; load from autocannon in a separate process from the server.`,
    '',
    'Every figure is compared with a floor measured in the same run. Read floors are a constant endpoint in the same server returning a body of the same size.',
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
    '## Machine',
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
    '',
    '## Server memory (VmRSS)',
    '',
    ...Object.entries(results.serverRssMB ?? {}).map(([when, mb]) => `- ${when}: ${mb} MB`),
    '',
    '## How each figure is measured',
    '',
    ...results.measures.map((row) => `- **${row.measure}**: ${HOW[row.id] ?? ''}`),
    '',
    'Details (percentiles, sample counts, item counts, per-run times) are in `results.json`. Regenerate with `npm run bench -- --size 10k`.',
    '',
  );
  return lines.join('\n');
}

export async function writeResults(outDir, results) {
  await fs.mkdir(outDir, { recursive: true });
  await fs.writeFile(path.join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  await fs.writeFile(path.join(outDir, 'RESULTS.md'), renderMarkdown(results));
}
