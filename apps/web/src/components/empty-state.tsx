import type { ReactNode } from 'react';

/** An honest empty state: what will appear here and how to get there. */
export function EmptyState({ icon, title, body, action }: { icon?: ReactNode; title: string; body: string; action?: ReactNode }) {
  return (
    <section className="empty-state" aria-live="polite">
      {icon ? <div className="empty-state-icon" aria-hidden>{icon}</div> : null}
      <h2>{title}</h2>
      <p>{body}</p>
      {action}
    </section>
  );
}
