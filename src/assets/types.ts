/** An asset as the API reports it (AssetEntry in the OpenAPI document: its record, `path` and serve `url`). */
export interface AssetEntry extends AssetRecord {
  filename: string;
  /** `/` for the root, else `/photos/2024`. */
  folder: string;
  /** The path under the assets folder, e.g. `photos/2024/cat.png`: what `/assets/meta/*` and `/assets/serve/*` take. */
  path: string;
  /** The URL content should use: `${prefix}/assets/serve/<path>`. */
  url: string;
}

export interface FolderTreeNode {
  name: string;
  path: string;
  /** Assets directly in this folder (not in its subfolders). */
  assetCount: number;
  children: FolderTreeNode[];
}

/** What the manifest keeps for one file (everything the file itself cannot tell). */
export interface AssetRecord {
  originalName: string;
  mimeType: string;
  size: number;
  width?: number;
  height?: number;
  alt?: string;
  tags?: string[];
  uploadedAt: string;
  uploadedBy?: string;
}

/** What the bytes of a file say about it. */
export interface FileFacts {
  mimeType: string;
  width?: number;
  height?: number;
}

/** Where a reference to an asset was found in content. */
export interface AssetUsage {
  /** The content ID. */
  page: string;
  /** The locale whose file holds the reference. */
  locale: string;
  /** e.g. `meta.ogImage`, `content.visualData.blocks[2].src`, `content.mdx`. */
  field: string;
}
