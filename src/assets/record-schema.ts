import * as v from 'valibot';

/** One file's record in a manifest (AssetRecord). */
export const AssetRecordSchema = v.object({
  originalName: v.string(),
  mimeType: v.string(),
  size: v.number(),
  width: v.optional(v.number()),
  height: v.optional(v.number()),
  alt: v.optional(v.string()),
  tags: v.optional(v.array(v.string())),
  uploadedAt: v.string(),
  uploadedBy: v.optional(v.string()),
});
