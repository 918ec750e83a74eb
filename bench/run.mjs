// The Quire benchmark: `npm run bench [-- --size 10k] [--out DIR]`. See bench/README.md.
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cachedContent, linkContent, linkFolder } from './lib/content-cache.mjs';
import { generateContent } from './lib/generate.mjs';
import { commitAll, modifyPages, refreshIndex } from './lib/git.mjs';
import { measureAdminList } from './lib/measures/admin-list.mjs';
import { measureColdStart } from './lib/measures/cold-start.mjs';
import { measureDecap } from './lib/measures/decap.mjs';
import { measureGitStatus } from './lib/measures/git-status.mjs';
import { measureListMemory } from './lib/measures/list-memory.mjs';
import { measureListUnderWrites } from './lib/measures/list-under-writes.mjs';
import { measureReads } from './lib/measures/reads.mjs';
import { measureReview } from './lib/measures/review.mjs';
import { measureRssSteady } from './lib/measures/rss-steady.mjs';
import { measureUpload, rssMB } from './lib/measures/upload.mjs';
import { measureWrites } from './lib/measures/writes.mjs';
import { preparePackage } from './lib/package.mjs';
import { isAlive, killAll } from './lib/processes.mjs';
import { counter, log, phase, phaseSeconds, timed } from './lib/progress.mjs';
import { machineFacts, sizeLabel, sizeSection, writeResults } from './lib/report.mjs';
import { addReviewHistory, REVIEW_HISTORY_COMMITS } from './lib/review-history.mjs';
import { failedRow, probe, target } from './lib/rows.mjs';
import { API, buildSite, createBenchSite, startServer } from './lib/site.mjs';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.dirname(BENCH_DIR);
const RUNS_DIR = path.join(BENCH_DIR, '.work', 'runs');
const CACHE_DIR = path.join(BENCH_DIR, '.work', 'content-cache');
const ASTRO_BIN = path.join(REPO_ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs');
const GIT_CHANGES = 10;

const USAGE = `Usage: node bench/run.mjs [--size N|Nk] [--out DIR] [--duration S] [--package DIR] [--keep] [--fresh]
  --size      items (each with up to 3 locales); 10k = 10000            default 1000
  --out       folder for RESULTS.md and results/<size>.json             default bench/
  --duration  seconds per load run                                       default 2 (0.5 below 1000 items)
  --upload-mb size of the upload measure in MB                           default 200 (20 below 1000 items)
  --package   an extracted astro-quire package to use instead of npm pack of this repo
  --keep      keep the generated content, site and servers' folder (bench/.work/runs/<pid>)
  --seed      seed of the generated content                              default 7
  --fresh     generate the content again instead of taking it from bench/.work/content-cache`;

function parseSize(text) {
  const match = /^(\d+(?:\.\d+)?)(k?)$/i.exec(text.trim());
  if (!match) throw new Error(`--size ${text}: expected a number such as 1000 or 10k`);
  const size = Math.round(Number(match[1]) * (match[2] ? 1000 : 1));
  if (size < 20 || size > 100_000) throw new Error(`--size ${text}: expected 20 to 100k`);
  return size;
}

function options() {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '1000' },
      out: { type: 'string', default: BENCH_DIR },
      duration: { type: 'string' },
      'upload-mb': { type: 'string' },
      package: { type: 'string' },
      keep: { type: 'boolean', default: false },
      seed: { type: 'string', default: '7' },
      fresh: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const size = parseSize(values.size);
  const small = size < 1000;
  return {
    size,
    out: path.resolve(values.out),
    packageDir: values.package,
    keep: values.keep,
    seed: Number(values.seed),
    fresh: values.fresh,
    settings: {
      duration: values.duration ? Number(values.duration) : small ? 0.5 : 2,
      rounds: 2,
      coldStartRuns: small ? 1 : 3,
      gitRuns: small ? 3 : 5,
      uploadMB: values['upload-mb'] ? Number(values['upload-mb']) : small ? 20 : 200,
      adminRuns: small ? 3 : 5,
      // A smoke run checks the row's shape, not V8's memory reducer.
      steadyIdleSeconds: small ? 1 : 40,
    },
  };
}

/** Timed review answers after the first (which walks the history). */
const REVIEW_RUNS = 30;

/** Removes the folders of earlier runs whose process is gone. */
async function removeFinishedRuns() {
  for (const entry of await fs.readdir(RUNS_DIR).catch(() => [])) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
    await fs.rm(path.join(RUNS_DIR, entry), { recursive: true, force: true });
  }
}

/**
 * Runs one measure; an exception becomes a failed row instead of ending the bench, and so does a
 * server that is gone (at 100k items it may run out of memory), with the end of its output.
 */
async function attempt(id, measure, task, server) {
  const gone =
    server?.unusable ??
    (server?.exitCode !== undefined && `the server exited (${server.exitCode}): ${server.logs().slice(-300)}`);
  if (gone) return [failedRow({ id, measure, target: target.none(), note: `before this measure, ${gone}` })];
  try {
    return await timed(measure, task);
  } catch (error) {
    log(`   ${measure} failed: ${error.message.split('\n')[0]}`);
    return [
      failedRow({ id, measure, target: target.none(), note: `error: ${error.message.split('\n')[0].slice(0, 300)}` }),
    ];
  }
}

async function main() {
  const { size, out, packageDir, keep, seed, fresh, settings } = options();
  const runDir = path.join(RUNS_DIR, String(process.pid));
  const contentRoot = path.join(runDir, 'content');
  log(`Quire bench: ${size} items × 3 locales → ${out} (work folder ${path.relative(REPO_ROOT, runDir)})`);
  await removeFinishedRuns();
  await fs.mkdir(runDir, { recursive: true });

  phase('package');
  const pkg = await preparePackage({ repoRoot: REPO_ROOT, workDir: runDir, packageDir });
  if (pkg.warning) log(`   warning: ${pkg.warning}`);
  const packageVersion = JSON.parse(readFileSync(path.join(pkg.dir, 'package.json'), 'utf8')).version;
  log(`   astro-quire ${packageVersion} from ${path.relative(REPO_ROOT, pkg.dir) || pkg.dir}`);

  phase('content');
  const cached = await cachedContent({
    cacheRoot: CACHE_DIR,
    size,
    seed,
    packageDir: pkg.dir,
    fresh,
    build: async ({ contentDir, decapDir }) => {
      phase('generate content');
      const progress = counter('files', size * 4 + 300);
      const catalog = await generateContent({
        root: contentDir,
        decapDir,
        size,
        seed,
        packageDir: pkg.dir,
        onProgress: (done) => progress.tick(done),
      });
      progress.done();
      phase('git repository');
      await timed('git add and commit', () => commitAll(contentDir));
      const reviewId = await addReviewHistory(contentDir, catalog, pkg.dir);
      log(`   ${REVIEW_HISTORY_COMMITS} commits of history for ${reviewId}`);
      return { catalog, reviewId };
    },
  });
  const { catalog, reviewId } = cached;
  const decapDir = path.join(runDir, 'decap');
  const { counts } = catalog;
  log(
    `   ${counts.items} items, ${counts.files} locale files (${counts.inherited} inherited, ${counts.stale} stale, ${counts.customized} customized), ` +
      `${counts.assets} assets, ${(counts.bytes / 1024 / 1024).toFixed(1)} MB`,
  );
  phase("this run's copy of the content");
  await timed('hard links to the cache', async () => {
    await linkContent(cached.contentDir, contentRoot);
    await linkFolder(cached.decapDir, decapDir);
  });
  await timed('git update-index --refresh', () => refreshIndex(contentRoot));
  const modified = await modifyPages(contentRoot, catalog, GIT_CHANGES);
  log(`   ${modified.length} files changed since the commit`);

  phase('build the bench site');
  const site = await createBenchSite({
    dir: path.join(runDir, 'site'),
    packageDir: pkg.dir,
    contentRoot,
    uploadMaxBytes: (settings.uploadMB + 16) * 1024 * 1024,
  });
  const build = await buildSite({ dir: site.dir, astroBin: ASTRO_BIN });
  log(`   astro build: ${(build.ms / 1000).toFixed(1)} s`);

  const measures = [];
  const serverRssMB = {};
  phase('cold start');
  measures.push(
    ...[].concat(
      await attempt('cold-start', 'cold start', () =>
        measureColdStart({ site, contentRoot, catalog, runs: settings.coldStartRuns }),
      ),
    ),
  );

  phase('server');
  const server = await startServer(site);
  void server.exited.then((code) => {
    server.exitCode = code;
  });
  try {
    // A server that cannot build its index (out of memory at 100k, say) still leaves a results file.
    const warm = await probe(`${server.url}${API}/content?localization=one`).catch((error) => ({
      status: error.message,
    }));
    if (warm.status !== 200) {
      server.unusable = `GET /content answered ${warm.status}: ${server.logs().slice(-300)}`;
      log(`   ${server.unusable}`);
    }
    const rss = (label) => {
      if (server.unusable || server.exitCode !== undefined) return;
      serverRssMB[label] = rssMB(server.pid);
      log(`   server RSS ${label}: ${serverRssMB[label]} MB`);
    };
    if (!server.unusable) log(`   ${server.url} (pid ${server.pid}), index ready`);
    rss('after the index was built');

    const run = async (id, name, task) => measures.push(...[].concat(await attempt(id, name, task, server)));

    phase('distinct lists');
    await run('list-memory', 'distinct lists', () => measureListMemory({ server }));
    rss('after 1,000 distinct list queries');

    phase('reads');
    await run('reads', 'reads', () => measureReads({ server, catalog, settings }));
    rss('after the reads');
    phase('git status');
    await run('git-status', 'git status', () => measureGitStatus({ server, contentRoot, runs: settings.gitRuns }));
    rss('after git status');
    phase('review');
    await run('review', 'review', () => measureReview({ server, id: reviewId, runs: REVIEW_RUNS }));
    phase('writes');
    const writers = { server, catalog, contentRoot, excludeIds: new Set(modified) };
    await run('writes', 'writes', () =>
      measureWrites({ ...writers, workDir: runDir, duration: Math.max(1, settings.duration * 2), packageDir: pkg.dir }),
    );
    phase('list under writes');
    await run('list-under-writes', 'list under writes', () => measureListUnderWrites({ ...writers, settings }));
    rss('after the writes');
    await run('rss-steady', 'steady RSS', () =>
      measureRssSteady({
        server,
        contentBytes: counts.bytes,
        items: counts.items,
        idleSeconds: settings.steadyIdleSeconds,
      }),
    );
    phase('upload');
    await run('upload', 'upload', () => measureUpload({ server, megabytes: settings.uploadMB, contentRoot }));
    rss('after the upload');
    phase('decap-server');
    await run('decap-list', 'decap-server', () =>
      measureDecap({ server, catalog, decapDir, repoRoot: REPO_ROOT, settings }),
    );
    phase('admin list');
    await run('admin-list', 'admin list', () =>
      measureAdminList({ server, siteDir: site.dir, runs: settings.adminRuns }),
    );
  } finally {
    await server.stop();
  }

  phase('results');
  const results = {
    schema: 1,
    date: new Date().toISOString(),
    size,
    packageVersion,
    machine: machineFacts(REPO_ROOT),
    content: {
      ...counts,
      staleByLocale: catalog.staleByLocale,
      untranslatedByLocale: catalog.untranslatedByLocale,
      gitChangedFiles: modified.length,
      // Generation, git add and commit, history: what the cache saves each later run of this size.
      generationSeconds: cached.buildSeconds,
      fromCache: cached.fromCache,
    },
    settings,
    measures,
    serverRssMB,
    phaseSeconds: phaseSeconds(),
  };
  await writeResults(out, results);
  console.log(
    `\n${sizeSection(results)
      .filter((line) => line.startsWith('|'))
      .join('\n')}\n`,
  );
  log(`wrote ${path.join(out, 'RESULTS.md')} and ${path.join(out, 'results', `${sizeLabel(size)}.json`)}`);
  if (!keep) await fs.rm(runDir, { recursive: true, force: true });
}

main().then(
  () => {
    killAll();
    process.exit(0);
  },
  (error) => {
    console.error(`\nbench failed: ${error.stack ?? error.message}`);
    if (!existsSync(path.join(REPO_ROOT, 'dist')))
      console.error('dist/ is gone (a concurrent `npm run build`?): rerun when it is back.');
    killAll();
    process.exit(1);
  },
);
