import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import './segmented-switch.css';

/**
 * The option a key moves the choice to in a radio group of `count` options, from `index`: the
 * arrow keys step (wrapping round), Home and End jump to the ends; null for any other key.
 */
export function radioKeyTarget(key: string, index: number, count: number): number | null {
  const last = count - 1;
  const next = ({ ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: last } as Record<string, number>)[key];
  if (next === undefined || count === 0) return null;
  return next > last ? 0 : next < 0 ? last : next;
}

interface SegmentedOption<T extends string> {
  value: T;
  label: ReactNode;
  testId?: string;
}

/**
 * A pill-shaped segmented control that is a real radio group (antd-mobile's Segmented puts
 * <input>s inside role="listbox", which screen readers cannot make sense of): one tab stop, the
 * arrow keys (and Home/End) move the choice, Space/Enter or a tap picks.
 */
export function SegmentedSwitch<T extends string>({ label, value, options, onChange, block = false, className = '' }: {
  /** The group's name, read out with each choice ("Period, Today, 1 of 4"). */
  label: string;
  value: T;
  options: readonly SegmentedOption<T>[];
  onChange: (value: T) => void;
  /** Fill the row, the choices sharing its width. */
  block?: boolean;
  className?: string;
}) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const current = options.findIndex((o) => o.value === value);

  const pick = (index: number) => {
    const option = options[index];
    if (!option) return;
    buttons.current[index]?.focus();
    if (option.value !== value) onChange(option.value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = radioKeyTarget(event.key, index, options.length);
    if (next === null) return;
    event.preventDefault();
    pick(next);
  };

  return (
    <div role="radiogroup" aria-label={label} className={`pa-segmented${block ? ' pa-segmented-block' : ''}${className ? ` ${className}` : ''}`}>
      {options.map((o, i) => {
        const checked = i === current;
        return (
          <button
            key={o.value}
            ref={(el) => { buttons.current[i] = el; }}
            type="button"
            role="radio"
            aria-checked={checked}
            // One tab stop for the group: the chosen one (the first if none is).
            tabIndex={checked || (current === -1 && i === 0) ? 0 : -1}
            className={`pa-segmented-item${checked ? ' is-checked' : ''}`}
            data-testid={o.testId}
            onClick={() => pick(i)}
            onKeyDown={(event) => onKeyDown(event, i)}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
