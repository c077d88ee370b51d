import { Steps } from 'antd-mobile';
import type { ReactNode } from 'react';

interface TimelineStep {
  key: string;
  title: ReactNode;
  description?: ReactNode;
  /** Unset: done (or in progress, for the last one done); 'wait': still to come; 'error': went wrong. */
  status?: 'finish' | 'wait' | 'error';
}

/** A card with a vertical status timeline: what happened (`done`), then what is still to come (`upcoming`). */
export function StatusTimeline({ title, done, upcoming = [], testId }: { title: string; done: TimelineStep[]; upcoming?: TimelineStep[]; testId: string }) {
  return (
    <section className="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">{title}</h2>
      <Steps direction="vertical" current={done.length - 1} data-testid={testId}>
        {[...done, ...upcoming.map((s) => ({ ...s, status: s.status ?? ('wait' as const) }))].map((s) => (
          <Steps.Step key={s.key} title={s.title} description={s.description} {...(s.status ? { status: s.status } : {})} />
        ))}
      </Steps>
    </section>
  );
}
