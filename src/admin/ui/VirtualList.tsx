import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

interface Props<T> {
  items: readonly T[];
  rowHeight: number;
  label: string;
  keyOf(item: T): string;
  children(item: T): ComponentChildren;
}

const OVERSCAN = 6;

/** A scrolling list that renders only the rows in view (and a few around), so 10,000 rows stay smooth. */
export function VirtualList<T>({ items, rowHeight, label, keyOf, children }: Props<T>) {
  const viewport = useRef<HTMLElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);
  useLayoutEffect(() => {
    const element = viewport.current!;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const visible = items.slice(first, last);
  return (
    <section
      class="virtual"
      ref={viewport}
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus so keyboard users can scroll it (WCAG 2.1.1, axe scrollable-region-focusable); only the rows in view exist, so tabbing through them cannot reach the rest
      tabIndex={0}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <ul class="virtual__rows" style={{ height: `${items.length * rowHeight}px` }}>
        {visible.map((item, index) => (
          <li
            key={keyOf(item)}
            class="virtual__row"
            style={{ top: `${(first + index) * rowHeight}px`, height: `${rowHeight}px` }}
            aria-setsize={items.length}
            aria-posinset={first + index + 1}
          >
            {children(item)}
          </li>
        ))}
      </ul>
    </section>
  );
}
