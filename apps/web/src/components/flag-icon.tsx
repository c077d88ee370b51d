import { outlineIcon } from '@/components/outline-icon';

/** A flag, outlined like antd-mobile's icons: bounties (Home's quick actions and the empty list). */
export const FlagOutline = outlineIcon([
  'M9,5C9,4.4 9.4,4 10,4L11,4C11.6,4 12,4.4 12,5L12,43C12,43.6 11.6,44 11,44L10,44C9.4,44 9,43.6 9,43Z',
  'M12,7L40,7L33,16.5L40,26L12,26ZM15,10L15,23L34.1,23L29.3,16.5L34.1,10Z',
]);
