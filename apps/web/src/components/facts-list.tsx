/** Label–value rows of a record (a withdrawal, a conversion): `[label, value, testId?]`, the label left, the value right. */
import type { ReactNode } from 'react';
import './facts-list.css';

export type Fact = [string, ReactNode, string?];

export function FactsList({ rows, className }: { rows: Fact[]; className?: string }) {
  return (
    <dl className={className ? `facts-list ${className}` : 'facts-list'}>
      {rows.map(([label, value, testId]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd data-testid={testId}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
