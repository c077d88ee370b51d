import { Selector } from 'antd-mobile';
import type { ReactNode } from 'react';

/** A row of exclusive choices (antd-mobile Selector), each option carrying its test id. */
export function Choice<V extends string>({ value, options, onChange, disabled, columns, label }: { value: V; options: { value: V; label: ReactNode; testId: string; mark?: ReactNode }[]; onChange: (v: V) => void; disabled?: boolean; columns?: number; label: string }) {
  return (
    <div role="radiogroup" aria-label={label}>
      <Selector
        className="console-choice"
        columns={columns ?? options.length}
        showCheckMark={false}
        disabled={disabled}
        value={[value]}
        onChange={(next) => next[0] && onChange(next[0])}
        options={options.map((o) => ({ value: o.value, label: <span className="console-choice-label" role="radio" aria-checked={o.value === value} data-testid={o.testId}>{o.label}{o.mark}</span> }))}
      />
    </div>
  );
}
