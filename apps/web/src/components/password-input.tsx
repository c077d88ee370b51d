import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from './field';

/** Password input with a show/hide toggle. Its value stays in component state until sealed. */
export function PasswordInput(props: { id: string; value: string; onChange: (v: string) => void; onBlur?: () => void; autoComplete: string; placeholder?: string; invalid?: boolean; error?: string; 'data-testid'?: string }) {
  const [visible, setVisible] = useState(false);
  const { t } = useTranslation();
  return (
    <div className="password-input">
      <TextInput {...props} type={visible ? 'text' : 'password'} autoCapitalize="off" spellCheck={false} />
      <button type="button" className="password-toggle" aria-label={visible ? t('auth.hidePassword') : t('auth.showPassword')} onClick={() => setVisible((v) => !v)}>
        {visible ? <EyeOutline /> : <EyeInvisibleOutline />}
      </button>
    </div>
  );
}
