import { formatDate, formatTime } from '../lib/format';

/**
 * A moment in a console table: its date and its time, each kept whole, the time going under the
 * date when the column is narrow (a one-line date-time is the widest cell of most tables).
 */
export function DateTimeText({ at, locale }: { at: number; locale: string }) {
  return (
    <span className="data-table-when">
      <span className="data-table-nowrap">{formatDate(at, locale)}</span> <span className="data-table-nowrap">{formatTime(at, locale)}</span>
    </span>
  );
}
