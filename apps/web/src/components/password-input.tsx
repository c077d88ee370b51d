import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from './field';

/**
 * The toggle's eye, drawn here: antd-mobile-icons' eye outlines are 9 KB of path data, and this
 * component is on the sign-in page, inside the first visit's budget (docs/benchmarks.md).
 * `open`: the password shows; else the eye is struck through.
 */
function Eye({ open }: { open: boolean }) {
  return (
    <svg width="1em" height="1em" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden focusable="false">
      <path d="M2 12s3.6-6.5 10-6.5S22 12 22 12s-3.6 6.5-10 6.5S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {open ? null : <path d="M4 4l16 16" />}
    </svg>
  );
}

/** Password input with a show/hide toggle. Its value stays in component state until sealed. */
export function PasswordInput(props: { id: string; value: string; onChange: (v: string) => void; onBlur?: () => void; autoComplete: string; placeholder?: string; invalid?: boolean; error?: string; 'data-testid'?: string }) {
  const [visible, setVisible] = useState(false);
  const { t } = useTranslation();
  return (
    <div className="password-input">
      <TextInput {...props} type={visible ? 'text' : 'password'} autoCapitalize="off" spellCheck={false} />
      <button type="button" className="password-toggle" aria-label={visible ? t('auth.hidePassword') : t('auth.showPassword')} onClick={() => setVisible((v) => !v)}>
        <Eye open={visible} />
      </button>
    </div>
  );
}
