import { useTranslation } from 'react-i18next';
import type { ApplicationAnswer } from '@pa/shared';

/**
 * A registration's answers to the application form (issue 31): each question as it was asked and
 * the answer — an address as a link that opens apart from the console (only http(s) addresses are
 * ever stored), long text with its line breaks. `compact`: the registrations table's cell, each
 * answer cut to a few lines (the promoter's page shows them whole).
 */
export function ApplicationAnswers({ answers, compact = false }: { answers: ApplicationAnswer[]; compact?: boolean }) {
  const { t } = useTranslation();
  if (answers.length === 0) return <span className="data-table-muted">{t('promotersAdmin.application.none')}</span>;
  return (
    <dl className={`application-answers${compact ? ' is-compact' : ''}`} data-testid="application-answers">
      {answers.map((a) => (
        <div key={a.questionId} className="application-answer">
          <dt>{a.question}{a.source === 'group' ? <span className="application-source"> · {t('promotersAdmin.application.fromGroup')}</span> : null}</dt>
          <dd title={compact ? a.answer : undefined}>
            {a.kind === 'url' ? <a href={a.answer} target="_blank" rel="noopener noreferrer nofollow" className="application-link">{a.answer}</a> : a.answer}
          </dd>
        </div>
      ))}
    </dl>
  );
}
