/**
 * Asks before leaving a form with unsaved changes: closing or reloading the tab (the browser's own
 * question); inside the app, following a link or the back arrow (our dialog; "Leave" goes on,
 * "Stay" keeps the form) — that click is held in the capture phase, before the link or the button
 * sees it, and given again on "Leave"; and the browser's back or forward, the phone's back gesture
 * or a typed address, which the router holds while the page keeps its address (`holdAddress`).
 */
import { Dialog } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { holdAddress } from './hash-router';

export function useLeaveGuard(dirty: boolean) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!dirty) return;
    const ask = () => Dialog.confirm({ content: t('app.unsavedLeave'), confirmText: t('app.leave'), cancelText: t('app.stay') });
    const release = holdAddress(ask);
    let leaving = false;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need a value to show their question.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (leaving || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      const link = target?.closest<HTMLAnchorElement>('a[href^="#/"]');
      const back = target?.closest<HTMLElement>('[data-testid="nav-back"]');
      const leave = link && link.target !== '_blank' ? link : back;
      if (!leave) return;
      event.preventDefault();
      event.stopPropagation();
      void ask().then((yes) => {
        if (!yes) return;
        // The same click again, let through: the link or the back arrow does what it does.
        release();
        leaving = true;
        leave.click();
        leaving = false;
      });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      release();
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, t]);
}
