import type { Explanation } from '@pa/shared';
import './explanation-steps.css';

/** Outcomes that say why something was not credited or was cut, shown in the warning tone. */
const HELD_BACK = new Set(['click_outside_window', 'customer_outside_window', 'no_match', 'no_rule', 'nothing', 'paid_before']);
const HELD_BACK_STEPS = new Set(['schedule', 'eligibility', 'cap']);

/**
 * How a conversion was decided, step by step, in the words the server rendered in the reader's
 * language (`GET api/admin/conversions/:id/explanation`, `GET api/commissions/:id/explanation`).
 */
export function ExplanationSteps({ steps, testId }: { steps: Explanation['steps']; testId?: string }) {
  return (
    <ol className="explanation-steps" data-testid={testId}>
      {steps.map((s, i) => {
        const tone = HELD_BACK_STEPS.has(s.step) || HELD_BACK.has(s.outcome) ? ' explanation-step-held' : s.step === 'total' ? ' explanation-step-total' : '';
        return (
          <li key={`${s.step}-${s.outcome}-${i}`} className={`explanation-step${tone}`} data-step={s.step}>
            <span className="explanation-step-dot" aria-hidden />
            <span className="explanation-step-text">{s.text}</span>
          </li>
        );
      })}
    </ol>
  );
}
