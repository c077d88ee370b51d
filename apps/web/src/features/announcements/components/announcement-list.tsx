import { Button } from 'antd-mobile';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/format';
import { HOME_ANNOUNCEMENTS, useAnnouncements, type Announcement } from '../api/get-announcements';
import { SoundOutline } from './icons';
import './announcement-list.css';

/**
 * Whether the collapsed body hides text (measured, so a short body gets no "more" button).
 * Measured when a ResizeObserver reports, that is once the browser has laid the page out anyway
 * (and before it paints): reading the size straight after rendering would make it lay out the
 * whole of Home there and then, inside the render's task (a long task while Home loads).
 */
function useOverflows(body: string, expanded: boolean) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [overflows, setOverflows] = useState(false);
  // A layout effect only to start observing before the first paint; nothing is read here.
  useLayoutEffect(() => {
    const el = ref.current;
    // While expanded nothing is clipped; keep what was measured collapsed so "less" stays.
    if (!el || expanded) return;
    const measure = () => el.scrollHeight > el.clientHeight + 1;
    if (typeof ResizeObserver === 'undefined') {
      setOverflows(measure());
      return;
    }
    // Reports once when observing starts too (the first measure), before that frame is painted:
    // applied at once, the "more" button shows in the same frame (nothing moves afterwards).
    const observer = new ResizeObserver(() => {
      const value = measure();
      flushSync(() => setOverflows(value));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [body, expanded]);
  return { ref, overflows };
}

function AnnouncementCard({ a }: { a: Announcement }) {
  const { t, i18n } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const { ref, overflows } = useOverflows(a.body, expanded);
  const bodyId = useId();
  return (
    // `lang`: the text may be a fallback language, not the reader's.
    <li className={`announcement-card${a.pinned ? ' announcement-card-pinned' : ''}`} lang={a.locale} data-testid={`announcement-${a.id}`}>
      <div className="announcement-card-head">
        <h3 className="announcement-card-title">{a.title}</h3>
        {a.pinned ? <span className="announcement-pin" lang={i18n.language} data-testid={`announcement-pinned-${a.id}`}>{t('announcements.pinned')}</span> : null}
      </div>
      {/* Plain text: React escapes it; line breaks are kept by CSS (blank lines only when expanded, so 3 lines show 3 lines of text). */}
      <p ref={ref} id={bodyId} className={`announcement-card-body${expanded ? '' : ' announcement-card-body-clamped'}`} data-testid={`announcement-body-${a.id}`}>{expanded ? a.body : a.body.replace(/\n\s*\n+/g, '\n')}</p>
      <div className="announcement-card-foot" lang={i18n.language}>
        <time className="announcement-card-date" dateTime={new Date(a.publishedAt).toISOString()}>{formatDate(a.publishedAt, i18n.language)}</time>
        {overflows ? (
          <button type="button" className="text-button announcement-more" aria-expanded={expanded} aria-controls={bodyId} onClick={() => setExpanded((v) => !v)} data-testid={`announcement-more-${a.id}`}>
            {expanded ? t('announcements.less') : t('announcements.more')}
          </button>
        ) : null}
      </div>
    </li>
  );
}

/**
 * Home's announcements: compact cards, pinned first. Nothing at all while loading or when there
 * are none; an inline retry when loading failed (and nothing was shown before).
 */
export function AnnouncementList({ limit = HOME_ANNOUNCEMENTS }: { limit?: number }) {
  const { t, i18n } = useTranslation();
  const announcements = useAnnouncements(i18n.language, limit);
  const titleId = useId();

  if (!announcements.data) {
    if (!announcements.isError) return null;
    return (
      <section className="card announcement-section announcement-error" role="alert" data-testid="announcements-error">
        <p className="announcement-error-text">{t('announcements.loadFailed')}</p>
        <Button size="small" loading={announcements.isFetching} onClick={() => void announcements.refetch()} data-testid="announcements-retry">
          {t('app.retry')}
        </Button>
      </section>
    );
  }
  const items = announcements.data.items;
  if (items.length === 0) return null;
  // The server sends pinned first already; a stable sort keeps that true whatever it sends.
  const ordered = [...items].sort((x, y) => Number(y.pinned) - Number(x.pinned));
  return (
    <section className="card announcement-section" aria-labelledby={titleId} data-testid="announcements">
      <h2 id={titleId} className="announcement-title"><SoundOutline aria-hidden /> {t('announcements.title')}</h2>
      <ul className="announcement-list">
        {ordered.map((a) => <AnnouncementCard key={a.id} a={a} />)}
      </ul>
    </section>
  );
}
