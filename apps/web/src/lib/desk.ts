import { useSyncExternalStore } from 'react';

/** The staff console's desk layout starts at this width (side navigation, data tables). */
const DESK_MIN_WIDTH = 1024;
const query = `(min-width: ${DESK_MIN_WIDTH}px)`;

function subscribe(onChange: () => void) {
  const list = window.matchMedia(query);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/** True at desk width; pages of the staff console show tables then, cards below it. */
export function useDesk(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}
