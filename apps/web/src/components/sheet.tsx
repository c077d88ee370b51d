import { CenterPopup, Popup } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useDesk } from '../lib/desk';
import './sheet.css';

/**
 * A dialog at desk width, a bottom sheet on a phone (the console's forms and one-time secrets).
 * `onClose` runs on a tap outside; pass a no-op where the content must be acknowledged first.
 */
export function Sheet({ visible, onClose, labelledBy, wide = false, children }: { visible: boolean; onClose: () => void; labelledBy: string; wide?: boolean; children: ReactNode }) {
  const desk = useDesk();
  const body = visible ? <div role="dialog" aria-modal="true" aria-labelledby={labelledBy} className="staff-body">{children}</div> : null;
  return desk ? (
    <CenterPopup visible={visible} onMaskClick={onClose} className={`staff-popup${wide ? ' staff-wide' : ''}`} destroyOnClose>{body}</CenterPopup>
  ) : (
    <Popup visible={visible} onMaskClick={onClose} position="bottom" className="staff-popup staff-sheet" destroyOnClose>{body}</Popup>
  );
}
