import { SearchBar } from 'antd-mobile';
import { useEffect, useState } from 'react';

/**
 * A console list's search box: searches as the operator types (after a pause) and at once on
 * Enter; the query `q` lives in the address, and the box follows it when it changes from outside
 * (back, a cleared search) without losing focus.
 */
export function LiveSearch({ q, onSearch, label, maxLength, className, delay, testId }: {
  q: string;
  onSearch: (q: string) => void;
  /** The placeholder and the accessible name. */
  label: string;
  maxLength: number;
  className: string;
  /** How long typing must pause before the search runs, in ms. */
  delay: number;
  testId: string;
}) {
  const [text, setText] = useState(q);
  const [shown, setShown] = useState(q);
  if (q !== shown) {
    setShown(q);
    if (text.trim() !== q) setText(q);
  }
  useEffect(() => {
    const next = text.trim();
    if (next === q) return;
    const timer = window.setTimeout(() => onSearch(next), delay);
    return () => window.clearTimeout(timer);
  }, [text, q, onSearch, delay]);
  return (
    <div className={className}>
      <SearchBar
        value={text}
        maxLength={maxLength}
        placeholder={label}
        aria-label={label}
        onChange={setText}
        onSearch={(v) => onSearch(v.trim())}
        onClear={() => onSearch('')}
        data-testid={testId}
      />
    </div>
  );
}
