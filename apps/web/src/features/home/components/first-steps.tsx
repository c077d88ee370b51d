import { useTranslation } from 'react-i18next';
import type { StatsOverview } from '@pa/shared';
import { Link } from '@/lib/hash-router';
import { RightOutline } from './icons';

type Steps = StatsOverview['firstSteps'];

/**
 * A new promoter's way to a first click: join a campaign, get the link, share it. Home shows it
 * (above the figures, which are all zero until then) until the first click arrives; each step
 * leads to where it is done, the next one to do is marked.
 */
export function FirstSteps({ steps }: { steps: Steps }) {
  const { t } = useTranslation();
  const list = [
    { id: 'join', done: steps.joined, to: '/promote', title: t('home.stepJoin'), hint: t('home.stepJoinHint') },
    { id: 'link', done: steps.linked, to: '/links', title: t('home.stepLink'), hint: t('home.stepLinkHint') },
    { id: 'share', done: steps.clicked, to: '/links', title: t('home.stepShare'), hint: t('home.stepShareHint') },
  ];
  const next = list.findIndex((s) => !s.done);
  return (
    <section className="card first-steps" aria-labelledby="first-steps-title" data-testid="first-steps">
      <h2 id="first-steps-title">{t('home.firstStepsTitle')}</h2>
      <p className="first-steps-intro">{t('home.firstStepsBody')}</p>
      <ol className="first-steps-list">
        {list.map((s, i) => (
          <li key={s.id} className={`first-step${s.done ? ' is-done' : ''}${i === next ? ' is-next' : ''}`} data-testid={`first-step-${s.id}`} data-done={s.done}>
            <Link to={s.to} className="first-step-link" aria-current={i === next ? 'step' : undefined}>
              <span className="first-step-mark" aria-hidden>{s.done ? '✓' : i + 1}</span>
              <span className="first-step-text">
                <strong>{s.title}{s.done ? <span className="visually-hidden"> · {t('home.stepDone')}</span> : null}</strong>
                <span>{s.hint}</span>
              </span>
              <RightOutline aria-hidden className="first-step-go" />
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
