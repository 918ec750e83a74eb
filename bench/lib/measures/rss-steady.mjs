import { log } from '../progress.mjs';
import { measuredRow, round, target } from '../rows.mjs';
import { rssMB } from './upload.mjs';

const MB = 1024 * 1024;
/** The bound: resident memory within 2.5× the content it serves. */
const CONTENT_FACTOR = 2.5;

/**
 * The server's VmRSS once the read and write load is over, against 2.5× the bytes of the content
 * files (every locale file and asset the generator wrote under the content root, not .git).
 */
export function measureRssSteady({ server, contentBytes }) {
  const rss = rssMB(server.pid);
  const contentMB = round(contentBytes / MB, 1);
  const boundMB = round(contentMB * CONTENT_FACTOR, 1);
  log(`   steady RSS ${rss} MB against ${boundMB} MB (${CONTENT_FACTOR}× ${contentMB} MB of content)`);
  return measuredRow({
    id: 'rss-steady',
    measure: 'server RSS after the full read/write load',
    floor: { value: boundMB, unit: 'MB', label: `${boundMB} MB (${CONTENT_FACTOR}× the content's ${contentMB} MB)` },
    quire: { value: rss, unit: 'MB', label: `${rss} MB` },
    target: target.ratioMax(1),
    details: { rssMB: rss, contentMB, factor: CONTENT_FACTOR },
  });
}
