export type { AddInfo } from './add-file.js';
export { type AssetLibrary, type AssetLibraryOptions, createAssetLibrary } from './library.js';
export type { AssetEntry, AssetUsage, FolderTreeNode } from './types.js';
