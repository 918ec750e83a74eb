import { useState } from 'preact/hooks';
import { AssetPicker } from '../media/AssetPicker.js';
import { holdsAsset } from '../media/asset-fields.js';
import { KNOWN_META } from './fields.js';

interface Props {
  meta: Record<string, string>;
  onChange(meta: Record<string, string>): void;
}

/** Title and description as fields, every other meta key as a key/value row that can be removed (sent as null). */
export function MetaForm({ meta, onChange }: Props) {
  const [newKey, setNewKey] = useState('');
  const set = (key: string, value: string) => onChange({ ...meta, [key]: value });
  const remove = (key: string) => {
    const next = { ...meta };
    delete next[key];
    onChange(next);
  };
  const others = Object.keys(meta).filter((key) => !(KNOWN_META as readonly string[]).includes(key));
  const keyTaken = newKey.trim() in meta || (KNOWN_META as readonly string[]).includes(newKey.trim());
  return (
    <fieldset class="group">
      <legend>Meta</legend>
      <div class="field">
        <label for="meta-title">Title</label>
        <input id="meta-title" value={meta.title ?? ''} onInput={(event) => set('title', event.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="meta-description">Description</label>
        <textarea
          id="meta-description"
          rows={2}
          value={meta.description ?? ''}
          onInput={(event) => set('description', event.currentTarget.value)}
        />
      </div>
      {others.length > 0 && (
        <div class="kv">
          {others.map((key) => (
            <div class="kv__row" key={key}>
              <label for={`meta-${key}`} class="kv__key">
                {key}
              </label>
              <input id={`meta-${key}`} value={meta[key]} onInput={(event) => set(key, event.currentTarget.value)} />
              {holdsAsset(key, meta[key]) && <AssetPicker field={key} onChoose={(asset) => set(key, asset.url)} />}
              <button
                type="button"
                class="button button--small"
                onClick={() => remove(key)}
                aria-label={`Remove meta field ${key}`}
              >
                Remove
              </button>
            </div>
          ))}
        </div>
      )}
      <div class="inline-form">
        <label class="field field--inline">
          <span>New meta field</span>
          <input value={newKey} placeholder="e.g. author" onInput={(event) => setNewKey(event.currentTarget.value)} />
        </label>
        <button
          type="button"
          class="button button--small"
          disabled={!newKey.trim() || keyTaken}
          onClick={() => {
            set(newKey.trim(), '');
            setNewKey('');
          }}
        >
          Add field
        </button>
      </div>
    </fieldset>
  );
}
