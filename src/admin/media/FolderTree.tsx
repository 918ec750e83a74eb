import type { FolderTreeNode } from '../../client/index.js';

interface Props {
  tree: FolderTreeNode[];
  rootCount: number;
  current: string;
  onOpen(path: string): void;
}

function Node({ node, current, onOpen }: { node: FolderTreeNode; current: string; onOpen(path: string): void }) {
  return (
    <li>
      <button
        type="button"
        class="tree__folder"
        aria-current={node.path === current ? 'true' : undefined}
        onClick={() => onOpen(node.path)}
      >
        <span>{node.name}</span> <span class="count">{node.assetCount}</span>
      </button>
      {node.children.length > 0 && (
        <ul>
          {node.children.map((child) => (
            <Node key={child.path} node={child} current={current} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The folders with the number of files directly in each; the current one is marked. */
export function FolderTree({ tree, rootCount, current, onOpen }: Props) {
  return (
    <nav class="tree" aria-label="Folders">
      <ul>
        <li>
          <button
            type="button"
            class="tree__folder"
            aria-current={current === '/' ? 'true' : undefined}
            onClick={() => onOpen('/')}
          >
            <span>All folders (top)</span> <span class="count">{rootCount}</span>
          </button>
          {tree.length > 0 && (
            <ul>
              {tree.map((node) => (
                <Node key={node.path} node={node} current={current} onOpen={onOpen} />
              ))}
            </ul>
          )}
        </li>
      </ul>
    </nav>
  );
}

/** Every folder path of the tree, top first, for the move-to list. */
export const folderPaths = (tree: FolderTreeNode[]): string[] => ['/', ...flatten(tree)];
const flatten = (nodes: FolderTreeNode[]): string[] => nodes.flatMap((node) => [node.path, ...flatten(node.children)]);
