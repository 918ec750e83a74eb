import { useState } from 'preact/hooks';
import type { AssetEntry, AssetUsage } from '../../client/index.js';
import { editorHref } from '../state/router.js';
import { client } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { useAction } from '../ui/use-action.js';
import { AssetThumb, formatBytes } from './AssetThumb.js';

interface Props {
  asset: AssetEntry;
  folders: string[];
  /** Called after a change, with the asset's new path (undefined when it was deleted). */
  onChanged(path: string | undefined): void;
  onClose(): void;
}

const splitTags = (text: string) =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

/** Where an asset is used, each place a link into the editor; loaded before a delete can be confirmed. */
function UsageList({ usage }: { usage: AssetUsage['usage'] }) {
  if (usage.length === 0) return <p>Not used by any content.</p>;
  return (
    <>
      <p>Used by:</p>
      <ul class="usage">
        {usage.map((place) => (
          <li key={`${place.page}/${place.locale}/${place.field}`}>
            <a href={editorHref(place.page, place.locale)}>
              {place.page} ({place.locale})
            </a>{' '}
            › <code class="code">{place.field}</code>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * One asset: its file, its meta (alt text and tags, what the manifest holds), moving and deleting it.
 * Render it keyed by the asset's path: another asset is a fresh form (a reset in an effect would run
 * after the first paint and could wipe what was already typed).
 */
export function AssetDetails({ asset, folders, onChanged, onClose }: Props) {
  const [alt, setAlt] = useState(asset.alt ?? '');
  const [tags, setTags] = useState((asset.tags ?? []).join(', '));
  const [target, setTarget] = useState(asset.folder);
  const [usage, setUsage] = useState<AssetUsage['usage'] | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const action = useAction();

  const save = () =>
    action.run(async () => {
      await client.assets.updateMeta(asset.path, { alt: alt.trim() || null, tags: splitTags(tags) });
      setSaved(true);
      onChanged(asset.path);
    });
  const move = () =>
    action.run(async () => {
      const result = await client.assets.move({
        filenames: [asset.filename],
        sourceFolder: asset.folder,
        targetFolder: target,
      });
      if (result.skipped.length > 0) throw new Error(`Not moved: ${result.skipped[0]!.reason}`);
      onChanged(`${target === '/' ? '' : target.slice(1)}/${asset.filename}`.replace(/^\//, ''));
    });
  const askDelete = () =>
    action.run(async () => {
      setUsage((await client.assets.usage(asset.path)).usage);
    });
  const confirmDelete = () =>
    action.run(async () => {
      await client.assets.delete(asset.path);
      onChanged(undefined);
    });

  return (
    <section class="asset-details panel" aria-labelledby="asset-details-title">
      <div class="asset-details__head">
        <h2 id="asset-details-title">{asset.filename}</h2>
        <button type="button" class="button button--quiet button--small" onClick={onClose}>
          Close
        </button>
      </div>
      <div class="asset-details__preview">
        <AssetThumb asset={asset} />
      </div>
      <p class="muted">
        {asset.mimeType} · {formatBytes(asset.size)}
        {asset.width && asset.height ? ` · ${asset.width}×${asset.height}` : ''} · <code class="code">{asset.url}</code>
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div class="field">
          <label for="asset-alt">Alt text</label>
          <textarea id="asset-alt" rows={2} value={alt} onInput={(event) => setAlt(event.currentTarget.value)} />
          <span class="hint">What the image shows, for people who cannot see it.</span>
        </div>
        <div class="field">
          <label for="asset-tags">Tags</label>
          <input id="asset-tags" value={tags} onInput={(event) => setTags(event.currentTarget.value)} />
          <span class="hint">Separated by commas.</span>
        </div>
        <div class="actions">
          <button type="submit" class="button button--primary" disabled={action.busy}>
            Save details
          </button>
          {saved && (
            <span role="status" class="muted">
              Saved.
            </span>
          )}
        </div>
      </form>
      <div class="field field--inline">
        <label for="asset-move">Move to</label>
        <select id="asset-move" value={target} onChange={(event) => setTarget(event.currentTarget.value)}>
          {folders.map((folder) => (
            <option key={folder} value={folder}>
              {folder}
            </option>
          ))}
        </select>
        <button
          type="button"
          class="button button--small"
          disabled={action.busy || target === asset.folder}
          onClick={() => void move()}
        >
          Move
        </button>
      </div>
      <div class="danger">
        {usage === undefined ? (
          <button type="button" class="button button--danger" disabled={action.busy} onClick={() => void askDelete()}>
            Delete…
          </button>
        ) : (
          <div class="confirm">
            <UsageList usage={usage} />
            {usage.length > 0 && <p>Those pages will show a broken image until they are changed.</p>}
            <div class="actions">
              <button
                type="button"
                class="button button--danger"
                disabled={action.busy}
                onClick={() => void confirmDelete()}
              >
                Delete {asset.filename}
              </button>
              <button type="button" class="button button--quiet" onClick={() => setUsage(undefined)}>
                Keep it
              </button>
            </div>
          </div>
        )}
      </div>
      {action.error !== undefined && <ErrorNotice error={action.error} onDismiss={action.dismiss} />}
    </section>
  );
}
