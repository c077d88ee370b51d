import type { SVGProps } from 'react';

/**
 * An outline icon drawn as antd-mobile-icons draws its own (48 × 48, current colour, 1em), from
 * path data copied out of antd-mobile-icons (MIT). For the icons of a page that must load in as
 * few files as possible (Home): imported from antd-mobile-icons, each icon shared with other
 * pages becomes a file of its own.
 */
function OutlineIcon({ paths, className, style, ...props }: { paths: readonly string[] } & SVGProps<SVGSVGElement>) {
  return (
    <svg width="1em" height="1em" viewBox="0 0 48 48" fill="currentColor" xmlns="http://www.w3.org/2000/svg" {...props} className={className ? `antd-mobile-icon ${className}` : 'antd-mobile-icon'} style={{ verticalAlign: '-0.125em', ...style }}>
      {paths.map((d) => <path key={d} d={d} />)}
    </svg>
  );
}

/** An icon component drawing these paths (an OutlineIcon that takes the usual SVG props). */
export function outlineIcon(paths: readonly string[]) {
  return (props: SVGProps<SVGSVGElement>) => <OutlineIcon paths={paths} {...props} />;
}
