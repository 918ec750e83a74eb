export type { AddInfo } from './add-file.js';
export { createAssetLibrary, type AssetLibrary, type AssetLibraryOptions } from './library.js';
export type { AssetEntry, AssetUsage, FolderTreeNode } from './types.js';
