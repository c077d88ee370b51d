/**
 * `use-sync-external-store/shim` for React 18 and later: React's own hook. The build puts this
 * module in place of the shim (vite.config.ts), which react-i18next imports for older Reacts and
 * which would otherwise ship its fallback code in the entry.
 */
export { useSyncExternalStore } from 'react';
