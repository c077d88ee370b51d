/**
 * A flag, outlined like antd-mobile's icons (48 × 48, current colour, 1em): the empty bounties
 * list. Home draws the same one with its own icons (home/components/icons.tsx); drawn here as a
 * plain SVG, it brings no module shared with Home into the app's table of parts.
 */
export function FlagOutline() {
  return (
    <svg width="1em" height="1em" viewBox="0 0 48 48" fill="currentColor" aria-hidden className="antd-mobile-icon" style={{ verticalAlign: '-0.125em' }}>
      <path d="M9,5C9,4.4 9.4,4 10,4L11,4C11.6,4 12,4.4 12,5L12,43C12,43.6 11.6,44 11,44L10,44C9.4,44 9,43.6 9,43Z" />
      <path d="M12,7L40,7L33,16.5L40,26L12,26ZM15,10L15,23L34.1,23L29.3,16.5L34.1,10Z" />
    </svg>
  );
}
