import './media.css';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { AssetEntry, FolderTreeNode } from '../../client/index.js';
import { changeCount } from '../state/live.js';
import { client } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { useAction } from '../ui/use-action.js';
import { AssetDetails } from './AssetDetails.js';
import { AssetThumb, formatBytes, kindOf } from './AssetThumb.js';
import { FolderTree, folderPaths } from './FolderTree.js';
import { UploadQueue } from './UploadQueue.js';
import { uploadFiles } from './uploads.js';

interface Props {
  folder: string;
  onFolder(folder: string): void;
  /** Picking mode: each asset gets a "Choose" button calling this. */
  onPick?(asset: AssetEntry): void;
}

type View = 'grid' | 'list';
const VIEW_KEY = 'quire:media-view';

/** By file name or tag, across every folder. */
const matches = (asset: AssetEntry, words: string) =>
  asset.path.toLowerCase().includes(words) || (asset.tags ?? []).some((tag) => tag.toLowerCase().includes(words));

function NewFolder({ parent, onCreated }: { parent: string; onCreated(path: string): void }) {
  const [name, setName] = useState('');
  const action = useAction();
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const created = await client.assets.createFolder(`${parent === '/' ? '' : parent}/${name.trim()}`);
          setName('');
          onCreated(created.path);
        });
      }}
    >
      <label for="new-folder">New folder in {parent}</label>
      <input id="new-folder" value={name} onInput={(event) => setName(event.currentTarget.value)} required />
      <button type="submit" class="button button--small" disabled={action.busy || !name.trim()}>
        Create
      </button>
      {action.error !== undefined && <ErrorNotice error={action.error} onDismiss={action.dismiss} />}
    </form>
  );
}

function ImportUrl({ folder, onImported }: { folder: string; onImported(asset: AssetEntry): void }) {
  const [url, setUrl] = useState('');
  const action = useAction();
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const asset = await client.assets.importUrl({ url: url.trim(), folder });
          setUrl('');
          onImported(asset);
        });
      }}
    >
      <label for="import-url">Import from URL</label>
      <input
        id="import-url"
        type="url"
        placeholder="https://…"
        value={url}
        onInput={(event) => setUrl(event.currentTarget.value)}
        required
      />
      <button type="submit" class="button button--small" disabled={action.busy || !url.trim()}>
        {action.busy ? 'Importing…' : 'Import'}
      </button>
      {action.error !== undefined && (
        <ErrorNotice error={action.error} title="The file was not imported" onDismiss={action.dismiss} />
      )}
    </form>
  );
}

/** One file as the grid and the list show it. */
interface ShownAsset {
  asset: AssetEntry;
  selected: boolean;
  onOpen(): void;
  onPick?(): void;
}

function ChooseButton({ asset, onPick }: { asset: AssetEntry; onPick(): void }) {
  return (
    <button type="button" class="button button--small button--primary" onClick={onPick}>
      Choose<span class="visually-hidden"> {asset.filename}</span>
    </button>
  );
}

function Tile({ asset, selected, onOpen, onPick }: ShownAsset) {
  return (
    <li class={`tile${selected ? ' tile--selected' : ''}`} data-asset={asset.path}>
      <button type="button" class="tile__open" onClick={onOpen} aria-pressed={selected}>
        <AssetThumb asset={asset} />
        <span class="tile__name">{asset.filename}</span>
        <span class="visually-hidden">, {kindOf(asset.mimeType)}</span>
      </button>
      {onPick && <ChooseButton asset={asset} onPick={onPick} />}
    </li>
  );
}

function Row({ asset, selected, onOpen, onPick }: ShownAsset) {
  return (
    <tr data-asset={asset.path} class={selected ? 'media-table__selected' : undefined}>
      <td>
        <AssetThumb asset={asset} />
      </td>
      <td>
        <button type="button" class="link-button" onClick={onOpen} aria-pressed={selected}>
          {asset.filename}
        </button>
      </td>
      <td>{kindOf(asset.mimeType)}</td>
      <td>{formatBytes(asset.size)}</td>
      <td>{(asset.tags ?? []).join(', ')}</td>
      {onPick && (
        <td>
          <ChooseButton asset={asset} onPick={onPick} />
        </td>
      )}
    </tr>
  );
}

/**
 * The media library: folders with counts, the files of one folder (or, while searching, of all),
 * uploads by drag-and-drop or the file button, import from a URL, and one file's details. The
 * media screen and the editor's asset picker both show it.
 */
export function MediaLibrary({ folder, onFolder, onPick }: Props) {
  const [assets, setAssets] = useState<AssetEntry[] | undefined>(undefined);
  const [tree, setTree] = useState<FolderTreeNode[]>([]);
  const [loadError, setLoadError] = useState<unknown>(undefined);
  const [search, setSearch] = useState('');
  const [view, setView] = useState<View>((localStorage.getItem(VIEW_KEY) as View | null) ?? 'grid');
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [dragging, setDragging] = useState(false);
  const [reloads, setReloads] = useState(0);
  const reload = () => setReloads((count) => count + 1);

  useEffect(() => {
    let current = true;
    Promise.all([client.assets.list(), client.assets.folderTree()]).then(
      ([list, folders]) => {
        if (!current) return;
        setAssets(list.assets);
        setTree(folders.tree);
        setLoadError(undefined);
      },
      (error) => current && setLoadError(error),
    );
    return () => {
      current = false;
    };
  }, [reloads, changeCount.value]);

  const words = search.trim().toLowerCase();
  const shown = useMemo(
    () =>
      (assets ?? [])
        .filter((asset) => (words ? matches(asset, words) : asset.folder === folder))
        .sort((a, b) => a.path.localeCompare(b.path)),
    [assets, words, folder],
  );
  const chosen = assets?.find((asset) => asset.path === selected);
  const folders = folderPaths(tree);
  const rootCount = (assets ?? []).filter((asset) => asset.folder === '/').length;

  function chooseView(next: View) {
    setView(next);
    localStorage.setItem(VIEW_KEY, next);
  }
  async function upload(files: FileList | null) {
    if (!files || files.length === 0) return;
    await uploadFiles([...files], folder);
    reload();
  }

  return (
    <div class="media">
      <aside class="media__side">
        <FolderTree tree={tree} rootCount={rootCount} current={folder} onOpen={onFolder} />
        <NewFolder
          parent={folder}
          onCreated={(path) => {
            reload();
            onFolder(path);
          }}
        />
      </aside>
      <div class="media__main">
        <div class="media__tools">
          <div class="field field--search">
            <label for="media-search">Search by name or tag</label>
            <input
              id="media-search"
              type="search"
              value={search}
              onInput={(event) => setSearch(event.currentTarget.value)}
            />
          </div>
          <fieldset class="tabs" aria-label="View">
            <legend class="visually-hidden">View</legend>
            {(['grid', 'list'] as const).map((name) => (
              <button
                key={name}
                type="button"
                class="tab"
                aria-pressed={view === name}
                onClick={() => chooseView(name)}
              >
                {name === 'grid' ? 'Grid' : 'List'}
              </button>
            ))}
          </fieldset>
        </div>
        <section
          class={`dropzone${dragging ? ' dropzone--over' : ''}`}
          aria-label={`Upload into ${folder}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            void upload(event.dataTransfer?.files ?? null);
          }}
        >
          <p>
            Drop files here to upload them into <strong>{folder}</strong>, or{' '}
            <label class="button button--small" for="media-files">
              choose files
            </label>
            <input
              id="media-files"
              class="visually-hidden"
              type="file"
              multiple
              onChange={(event) => {
                void upload(event.currentTarget.files);
                event.currentTarget.value = '';
              }}
            />
          </p>
          <ImportUrl
            folder={folder}
            onImported={(asset) => {
              reload();
              setSelected(asset.path);
            }}
          />
        </section>
        <UploadQueue />
        {loadError !== undefined && <ErrorNotice error={loadError} title="The media library could not load" />}
        {assets === undefined && loadError === undefined && (
          <p class="loading" role="status">
            Loading…
          </p>
        )}
        {assets !== undefined && (
          <p class="count" role="status">
            {words
              ? `${shown.length} file${shown.length === 1 ? '' : 's'} match “${search.trim()}” in all folders`
              : `${shown.length} file${shown.length === 1 ? '' : 's'} in ${folder}`}
          </p>
        )}
        {view === 'grid' ? (
          <ul class="grid" aria-label="Files">
            {shown.map((asset) => (
              <Tile
                key={asset.path}
                asset={asset}
                selected={asset.path === selected}
                onOpen={() => setSelected(asset.path)}
                onPick={onPick && (() => onPick(asset))}
              />
            ))}
          </ul>
        ) : (
          <table class="media-table">
            <caption class="visually-hidden">Files</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span class="visually-hidden">Preview</span>
                </th>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Size</th>
                <th scope="col">Tags</th>
                {onPick && (
                  <th scope="col">
                    <span class="visually-hidden">Choose</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {shown.map((asset) => (
                <Row
                  key={asset.path}
                  asset={asset}
                  selected={asset.path === selected}
                  onOpen={() => setSelected(asset.path)}
                  onPick={onPick && (() => onPick(asset))}
                />
              ))}
            </tbody>
          </table>
        )}
      </div>
      {chosen && (
        <AssetDetails
          key={chosen.path}
          asset={chosen}
          folders={folders}
          onClose={() => setSelected(undefined)}
          onChanged={(path) => {
            setSelected(path);
            reload();
          }}
        />
      )}
    </div>
  );
}
