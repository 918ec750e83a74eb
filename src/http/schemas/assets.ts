import * as v from 'valibot';
import { commaList } from '../validate.js';

const Alt = v.pipe(v.string(), v.maxLength(2000, 'Expected at most 2000 characters'));
const Tag = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('Expected a non-empty tag'),
  v.maxLength(100, 'Expected at most 100 characters'),
);
const Tags = v.pipe(v.array(Tag), v.maxLength(100, 'Expected at most 100 tags'));
const Email = v.pipe(v.string(), v.maxLength(320, 'Expected at most 320 characters'));
/** A multipart dimension field: a whole number of pixels, or empty. */
const Pixels = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^([1-9]\d{0,5})?$/, 'Expected a whole number of pixels'),
    v.transform((value) => (value === '' ? undefined : Number(value))),
  ),
);

export const FolderQuerySchema = v.object({ path: v.optional(v.string(), '/') });

/** The text fields of a multipart upload (all strings on the wire). */
export const UploadFieldsSchema = v.object({
  folder: v.optional(v.string()),
  alt: v.optional(Alt),
  uploadedBy: v.optional(Email),
  width: Pixels,
  height: Pixels,
  tags: v.optional(v.pipe(commaList, Tags)),
});

export const ImportUrlSchema = v.object({
  url: v.pipe(v.string(), v.nonEmpty('Expected a URL')),
  alt: v.optional(Alt),
  uploadedBy: v.optional(Email),
  folder: v.optional(v.string()),
  tags: v.optional(Tags),
});

export const MetaPatchSchema = v.strictObject({
  alt: v.optional(v.nullable(Alt)),
  tags: v.optional(v.nullable(Tags)),
});

export const MoveSchema = v.object({
  filenames: v.pipe(
    v.array(v.string()),
    v.minLength(1, 'Expected at least one filename'),
    v.maxLength(1000, 'Expected at most 1000 filenames'),
  ),
  sourceFolder: v.string(),
  targetFolder: v.string(),
});

export const CreateFolderSchema = v.object({ path: v.pipe(v.string(), v.nonEmpty('Expected a folder path')) });
