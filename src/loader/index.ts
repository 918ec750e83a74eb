export { quireLoader, type QuireLoader, type QuireEntrySchema } from './loader.js';
export type { QuireLoaderOptions } from './options.js';
export { entryIdOf } from './entries.js';
export { assetImage } from './images.js';
export type { DataEntryData, EntryData, FragmentEntryData, PageEntryData } from './schema.js';
