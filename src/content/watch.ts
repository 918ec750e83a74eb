import fs from 'node:fs';
import path from 'node:path';

/**
 * Watches folders one by one (not recursively: Node's recursive watch on Linux walks and
 * watches every file) and reports each touched path synchronously, so a path changed before
 * a request arrives is known by the time the request is served. `onLost` hears of a folder that
 * could not be watched or whose watch failed: its changes will not be reported.
 */
export function createFolderWatcher(onPath: (absolutePath: string) => void, onLost?: (folder: string) => void) {
  const watchers = new Map<string, fs.FSWatcher>();
  let warned = false;

  function close(folder: string) {
    watchers.get(folder)?.close();
    watchers.delete(folder);
  }

  return {
    add(folder: string) {
      if (watchers.has(folder)) return;
      try {
        const watcher = fs.watch(folder, { persistent: false }, (_event, name) => {
          onPath(name ? path.join(folder, name.toString()) : folder);
        });
        watcher.on('error', () => {
          close(folder);
          onLost?.(folder);
        });
        watchers.set(folder, watcher);
      } catch (error) {
        onLost?.(folder);
        if (!warned) {
          warned = true;
          console.warn(
            `[astro-quire] cannot watch ${folder} (${(error as Error).message}); files changed outside Quire may not show until restart.`,
          );
        }
      }
    },
    /** Stops watching a folder and everything below it. */
    removeTree(folder: string) {
      for (const watched of [...watchers.keys()]) {
        if (watched === folder || watched.startsWith(folder + path.sep)) close(watched);
      }
    },
    closeAll() {
      for (const folder of [...watchers.keys()]) close(folder);
    },
  };
}
