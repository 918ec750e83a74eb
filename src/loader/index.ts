export { entryIdOf } from './entries.js';
export { assetImage } from './images.js';
export { type QuireEntrySchema, type QuireLoader, quireLoader } from './loader.js';
export type { QuireLoaderOptions } from './options.js';
export type { DataEntryData, EntryData, FragmentEntryData, PageEntryData } from './schema.js';
