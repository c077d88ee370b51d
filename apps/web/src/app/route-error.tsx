import { Button } from 'antd-mobile';
import { Component, type ReactNode } from 'react';
import { i18next } from '../i18n';

/** Shown when a page fails to load or render (e.g. a new version was deployed and an old chunk is gone). */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page-error" role="alert">
        <p>{i18next.t('app.loadFailed')}</p>
        <Button color="primary" onClick={() => window.location.reload()}>{i18next.t('app.retry')}</Button>
      </div>
    );
  }
}
