import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { largePng } from '../png.mjs';
import { log } from '../progress.mjs';
import { failedRow, measuredRow, NOT_BUILT, notBuilt, probe, round, skippedRow, target } from '../rows.mjs';
import { API } from '../site.mjs';

const MB = 1024 * 1024;

function rssBytes(pid) {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** A process's resident memory in MB, one decimal. */
export const rssMB = (pid) => round(rssBytes(pid) / MB, 1);

/**
 * A large upload to `POST /assets/upload`: a real PNG of `megabytes` MB sent as multipart, its
 * bytes generated while sending (the client never holds the file), while the server's VmRSS is
 * sampled every 20 ms from /proc. The figure is the peak RSS minus the RSS just before.
 */
export async function measureUpload({ server, megabytes, contentRoot }) {
  const id = 'upload';
  const measure = `${megabytes} MB upload: server RSS growth`;
  const goal = target.max(64, 'MB');
  const url = `${server.url}${API}/assets/upload`;
  const empty = await probe(url, { method: 'POST', body: new FormData(), headers: { origin: server.url } });
  if (notBuilt(empty)) return skippedRow({ id, measure, target: goal, note: NOT_BUILT });

  const png = largePng(megabytes * MB);
  png.prepare();
  const boundary = `----quire-bench-${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nbench upload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-upload.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  function* body() {
    yield head;
    yield* png.bytes();
    yield tail;
  }

  const before = rssBytes(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(server.pid));
    } catch {
      /* the server exited; the answer will say so */
    }
  }, 20);
  log(`upload: ${megabytes} MB to /assets/upload (RSS before ${round(before / MB, 1)} MB)`);
  const started = performance.now();
  let answer;
  try {
    answer = await new Promise((resolve, reject) => {
      const request = http.request(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(head.length + png.size + tail.length),
            origin: server.url,
          },
          timeout: 300_000,
        },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString() }));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error('upload timed out')));
      request.on('error', reject);
      // The server may answer early (e.g. 413) and close: that settles the response, not an error here.
      pipeline(Readable.from(body()), request).catch(() => {});
    });
  } catch (error) {
    answer = { status: 0, text: error.message };
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  try {
    peak = Math.max(peak, rssBytes(server.pid));
  } catch {
    /* exited */
  }
  const growth = (peak - before) / MB;
  log(
    `   ${answer.status} after ${seconds.toFixed(1)} s; RSS peak ${round(peak / MB, 1)} MB (+${round(growth, 1)} MB)`,
  );

  const stored = await findFileOfSize(path.join(contentRoot, 'assets'), png.size);
  const details = {
    uploadBytes: png.size,
    seconds: round(seconds, 2),
    megabytesPerSecond: round(megabytes / seconds, 1),
    rssBeforeMB: round(before / MB, 1),
    rssPeakMB: round(peak / MB, 1),
    status: answer.status,
    storedFile: stored,
    answer: answer.text.slice(0, 300),
  };
  if (answer.status !== 201)
    return failedRow({
      id,
      measure,
      target: goal,
      note: `answered ${answer.status}: ${answer.text.slice(0, 200)}`,
      details,
    });
  return measuredRow({
    id,
    measure,
    floor: { value: round(before / MB, 1), unit: 'MB', label: `${round(before / MB, 1)} MB RSS before the upload` },
    quire: {
      value: round(growth, 1),
      unit: 'MB',
      label: `+${round(growth, 1)} MB (peak ${round(peak / MB, 1)} MB, ${round(megabytes / seconds, 0)} MB/s)`,
    },
    ratio: null,
    target: goal,
    details,
  });
}

async function findFileOfSize(folder, size) {
  for (const entry of await fs.readdir(folder, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    if ((await fs.stat(full)).size === size) return path.relative(folder, full);
  }
  return null;
}
