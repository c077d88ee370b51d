/**
 * How antd-mobile renders its imperative pieces (Toast, Dialog, …: each in a root of its own
 * outside the app's tree), for React 19. The build puts this module in place of rc-util's
 * `rc-util/lib/React/render` (vite.config.ts, `resolve.alias`), which antd-mobile's default renderer
 * imports: that one calls `ReactDOM.render` (gone in React 19; antd-mobile's `unstableSetRender`
 * was set to this code instead) and brought Babel's async runtime into the entry, about 4 KB gzip
 * the sign-in page never used.
 */
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

const roots = new WeakMap<Element | DocumentFragment, Root>();

export function render(node: ReactNode, container: Element | DocumentFragment) {
  let root = roots.get(container);
  if (!root) {
    root = createRoot(container);
    roots.set(container, root);
  }
  root.render(node);
}

/** Unmounts after the current task: a piece closing itself runs this from its own render's effects. */
export async function unmount(container: Element | DocumentFragment) {
  await new Promise((resolve) => setTimeout(resolve, 0));
  roots.get(container)?.unmount();
  roots.delete(container);
}
