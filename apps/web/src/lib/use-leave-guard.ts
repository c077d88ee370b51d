/**
 * Asks before leaving a form with unsaved changes: closing or reloading the tab (the browser's own
 * question), and — inside the app — following a link or the back arrow (our dialog; "Leave" goes
 * on, "Stay" keeps the form). The hash router cannot stop a navigation once it has started, so the
 * click that would start it is held in the capture phase, before the link or the button sees it.
 */
import { Dialog } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from './router';

export function useLeaveGuard(dirty: boolean) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need a value to show their question.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      const link = target?.closest<HTMLAnchorElement>('a[href^="#/"]');
      const back = target?.closest('[data-testid="nav-back"]');
      if ((!link || link.target === '_blank') && !back) return;
      event.preventDefault();
      event.stopPropagation();
      void Dialog.confirm({ content: t('app.unsavedLeave'), confirmText: t('app.leave'), cancelText: t('app.stay') }).then((leave) => {
        if (!leave) return;
        if (link) navigate(link.getAttribute('href')!.slice(1));
        else navigate(-1);
      });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, t]);
}
