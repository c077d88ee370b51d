import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './pull-to-refresh.css';

/** How far the content moves before letting go refreshes (and where it rests while refreshing). */
export const PULL_THRESHOLD = 56;
const MAX_PULL = 120;
/** How long "Updated" shows before the content slides back. */
const DONE_MS = 600;
const SLIDE_MS = 250;

type Status = 'idle' | 'pulling' | 'release' | 'refreshing' | 'done';

/** The finger's travel → the content's: half of it, then half as much again past the threshold, up to a limit. */
export function pullDistance(distance: number) {
  const half = distance / 2;
  if (half <= PULL_THRESHOLD) return half;
  return Math.min(MAX_PULL, PULL_THRESHOLD + (half - PULL_THRESHOLD) / 2);
}

function pageScrollTop() {
  return (document.scrollingElement ?? document.documentElement).scrollTop;
}

/**
 * Pull down at the top of the page to refresh: touch events and a CSS transform (no layout while
 * pulling, nothing loaded or measured on mount — antd-mobile's PullToRefresh brings a spring
 * library and reads the layout as it mounts). A line above the content says what happens, in
 * the reader's language: pull to refresh → release to refresh → refreshing → updated.
 */
export function PullToRefresh({ onRefresh, children }: { onRefresh: () => Promise<unknown>; children: ReactNode }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('idle');
  const rootRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const refresh = useRef(onRefresh);
  useEffect(() => {
    refresh.current = onRefresh;
  }, [onRefresh]);

  useEffect(() => {
    const root = rootRef.current;
    const head = headRef.current;
    const body = bodyRef.current;
    if (!root || !head || !body) return;
    let startX = 0;
    let startY = 0;
    let tracking = false;
    let pulling = false;
    let busy = false;
    let offset = 0;
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;

    /** Moves the content (and the line above it) down by `y`; at 0 nothing is left styled. */
    const moveTo = (y: number, animate: boolean) => {
      offset = y;
      root.classList.toggle('is-sliding', animate);
      root.classList.toggle('is-pulled', y > 0 || animate);
      body.style.transform = y > 0 ? `translateY(${y}px)` : '';
      head.style.transform = `translateY(${y - PULL_THRESHOLD}px)`;
    };
    const settle = (then?: () => void) => {
      moveTo(0, true);
      timer = setTimeout(() => {
        if (!alive) return;
        root.classList.remove('is-sliding', 'is-pulled');
        then?.();
      }, SLIDE_MS);
    };

    const onStart = (event: TouchEvent) => {
      const touch = event.touches[0];
      tracking = !busy && event.touches.length === 1 && !!touch && pageScrollTop() <= 0;
      pulling = false;
      if (!tracking || !touch) return;
      startX = touch.clientX;
      startY = touch.clientY;
    };
    const onMove = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (!tracking || !touch) return;
      const dy = touch.clientY - startY;
      const dx = touch.clientX - startX;
      if (!pulling) {
        // Only a downward drag at the very top pulls; anything else is an ordinary scroll or swipe.
        if (dy <= 0 || Math.abs(dx) > dy || pageScrollTop() > 0) {
          tracking = dy === 0 && dx === 0;
          return;
        }
        pulling = true;
        clearTimeout(timer);
      }
      // Keeps the page (and the browser's own pull-to-reload) still while pulling.
      if (event.cancelable) event.preventDefault();
      const y = pullDistance(Math.max(0, dy));
      moveTo(y, false);
      setStatus(y >= PULL_THRESHOLD ? 'release' : 'pulling');
    };
    const onEnd = () => {
      if (!pulling) return;
      tracking = false;
      pulling = false;
      if (offset < PULL_THRESHOLD) {
        settle(() => setStatus('idle'));
        return;
      }
      busy = true;
      moveTo(PULL_THRESHOLD, true);
      setStatus('refreshing');
      void Promise.resolve()
        .then(() => refresh.current())
        .catch(() => undefined) // the page shows its own error
        .then(() => {
          if (!alive) return;
          setStatus('done');
          timer = setTimeout(() => {
            if (!alive) return;
            settle(() => {
              busy = false;
              setStatus('idle');
            });
          }, DONE_MS);
        });
    };

    root.addEventListener('touchstart', onStart, { passive: true });
    root.addEventListener('touchmove', onMove, { passive: false });
    root.addEventListener('touchend', onEnd);
    root.addEventListener('touchcancel', onEnd);
    return () => {
      alive = false;
      clearTimeout(timer);
      root.removeEventListener('touchstart', onStart);
      root.removeEventListener('touchmove', onMove);
      root.removeEventListener('touchend', onEnd);
      root.removeEventListener('touchcancel', onEnd);
    };
  }, []);

  const text = status === 'idle' ? '' : t(`app.pullToRefresh.${status}`);
  return (
    <div ref={rootRef} className="ptr">
      <div ref={headRef} className="pull-to-refresh-head" role="status" data-testid="pull-to-refresh-status">
        {text}
      </div>
      <div ref={bodyRef} className="pull-to-refresh-body">
        {children}
      </div>
    </div>
  );
}
