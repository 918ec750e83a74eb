import { useState } from 'preact/hooks';
import type { AssetEntry } from '../../client/index.js';
import { AssetPicker } from '../media/AssetPicker.js';
import { markdownImage } from '../media/asset-fields.js';
import { BlockList } from './BlockList.js';
import { CodeEditor } from './CodeEditor.js';
import type { ItemType } from './fields.js';
import { jsonError } from './json-error.js';

interface Props {
  type: ItemType;
  isData: boolean;
  body: string;
  readOnly: boolean;
  onChange(body: string): void;
}

function JsonProblem({ body }: { body: string }) {
  const problem = jsonError(body);
  return (
    <p id="body-status" class={problem ? 'problem' : 'hint'} aria-live="polite">
      {problem ? `Not valid JSON, cannot be saved: ${problem}.` : 'Valid JSON.'}
    </p>
  );
}

/** The locale's content, edited as its type needs: MDX source, a JSON document, or a list of blocks. */
export function ContentField({ type, isData, body, readOnly, onChange }: Props) {
  const [raw, setRaw] = useState(false);
  if (type === 'mdx') {
    // Appended at the end: the editor's cursor is CodeMirror's, and the image is easy to move from there.
    const insertImage = (asset: AssetEntry) =>
      onChange(`${body.replace(/\n*$/, '')}\n\n${markdownImage(asset.alt, asset.url)}\n`);
    return (
      <>
        <div class="actions">
          <AssetPicker field="the content" label="Insert image" disabled={readOnly} onChoose={insertImage} />
        </div>
        <CodeEditor value={body} onChange={onChange} language="markdown" label="Content (MDX)" readOnly={readOnly} />
      </>
    );
  }
  if (type === 'json') {
    return (
      <>
        <CodeEditor
          value={body}
          onChange={onChange}
          language="json"
          label={isData ? 'Data (JSON)' : 'Content (JSON)'}
          readOnly={readOnly}
          describedBy="body-status"
        />
        <JsonProblem body={body} />
      </>
    );
  }
  return (
    <>
      <fieldset class="tabs" aria-label="Content view">
        <button type="button" class="tab" aria-pressed={!raw} onClick={() => setRaw(false)}>
          Blocks
        </button>
        <button type="button" class="tab" aria-pressed={raw} onClick={() => setRaw(true)}>
          Raw JSON
        </button>
      </fieldset>
      {raw ? (
        <>
          <CodeEditor
            value={body}
            onChange={onChange}
            language="json"
            label="Content (visual data as JSON)"
            readOnly={readOnly}
            describedBy="body-status"
          />
          <JsonProblem body={body} />
        </>
      ) : (
        <BlockList body={body} readOnly={readOnly} onChange={onChange} />
      )}
    </>
  );
}
