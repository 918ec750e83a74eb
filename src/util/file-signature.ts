/** What tells a file's version apart without reading it: inode, size and modification time. */
export const signatureOf = (stat: { ino: number; size: number; mtimeMs: number }): string =>
  `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
