import fs from 'node:fs/promises';
import path from 'node:path';
import { sleep } from './processes.mjs';
import { probe } from './rows.mjs';
import { API } from './site.mjs';

/**
 * Writers for autocannon: each connection is the only writer of one page (its default locale),
 * and every PUT carries the etag the previous answer gave, a new title and content, and a
 * sequence number in meta, so that afterwards the file on disk can be checked against the last
 * acknowledged write. Returns `{ writers, setupClient }`, or `{ error }` when a page cannot be read.
 */
export async function prepareWriters({ server, items, contentRoot }) {
  const writers = [];
  for (const item of items) {
    const answer = await probe(`${server.url}${API}/content/${item.id}/en`);
    if (answer.status !== 200) return { error: `could not read ${item.id}: ${answer.status}` };
    writers.push({
      id: item.id,
      file: path.join(contentRoot, item.locales.en.file),
      etag: answer.json.localized.etag,
      visualData: answer.json.localized.content.visualData,
      sent: 0,
      acked: 0,
      ackedCount: 0,
      failures: [],
    });
  }
  let next = 0;
  const setupClient = (client) => {
    const writer = writers[next++ % writers.length];
    client.setRequests([
      {
        method: 'PUT',
        setupRequest(request) {
          const seq = writer.sent + 1;
          writer.sent = seq;
          const title = `Bench write ${seq}`;
          return {
            ...request,
            path: `${API}/content/${writer.id}?locale=en&etag=${encodeURIComponent(writer.etag)}`,
            headers: { 'content-type': 'application/json', origin: server.url },
            body: JSON.stringify({
              meta: { title, benchSeq: seq },
              content: {
                visualData: { ...writer.visualData, root: { props: { ...writer.visualData.root.props, title } } },
              },
            }),
          };
        },
        onResponse(status, body) {
          if (status === 200) {
            writer.etag = JSON.parse(body).etag;
            writer.acked = writer.sent;
            writer.ackedCount++;
          } else if (writer.failures.length < 5) {
            writer.failures.push(`${status} ${String(body).slice(0, 200)}`);
          }
        },
      },
    ]);
  };
  return { writers, setupClient };
}

/** The autocannon options of a write load: one connection per writer (the request list is each client's own). */
export const writeLoad = (server, { writers, setupClient }) => ({
  url: server.url,
  connections: writers.length,
  setupClient,
  requests: [{ method: 'GET', path: `${API}/auth/user` }],
});

const SETTLE_MS = 1_000;

/**
 * Each writer's page on disk and as served must hold its last acknowledged write, or a later one
 * that was sent but whose answer the end of the load cut off.
 */
export async function verifyWriters(server, writers) {
  // A write whose answer the end of the load cut off may still be under way in the server.
  await sleep(SETTLE_MS);
  const verification = [];
  for (const writer of writers) {
    const onDisk = JSON.parse(await fs.readFile(writer.file, 'utf8')).meta.benchSeq;
    const served = await probe(`${server.url}${API}/content/${writer.id}/en`);
    const ok =
      typeof onDisk === 'number' &&
      onDisk >= writer.acked &&
      onDisk <= writer.sent &&
      served.json?.localized?.meta?.benchSeq === onDisk;
    verification.push({
      id: writer.id,
      acknowledged: writer.ackedCount,
      lastAcknowledged: writer.acked,
      lastSent: writer.sent,
      onDisk,
      ok,
      ...(writer.failures.length && { failures: writer.failures }),
    });
  }
  return { verification, allOnDisk: verification.every((entry) => entry.ok) };
}
