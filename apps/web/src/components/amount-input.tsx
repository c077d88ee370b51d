import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { amountStyle } from '@/lib/money-input';
import { TextInput } from './field';
import './amount-input.css';

interface Props {
  id: string;
  currency: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /** Shown before the figure (and before the mark): the adjustment's + or −. */
  sign?: ReactNode;
  /** The box's test id. */
  boxTestId?: string;
  /** The input's test id. */
  inputTestId?: string;
}

/**
 * A money amount typed in the currency's unit (the promoter's withdrawal, the console's balance
 * adjustment): one box with the currency mark where the reader's locale writes it, an optional
 * sign, and a decimal keyboard. The parsing is the form's (lib/money-input.ts).
 */
export function AmountInput({ id, currency, value, onChange, invalid, placeholder, disabled, sign, boxTestId, inputTestId }: Props) {
  const { i18n } = useTranslation();
  const { mark, after } = amountStyle(currency, i18n.language);
  const unit = <span className="amount-unit" aria-hidden>{mark}</span>;
  return (
    <div className="amount-input" data-testid={boxTestId}>
      {sign}
      {after ? null : unit}
      <TextInput
        id={id}
        value={value}
        onChange={onChange}
        invalid={invalid}
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        disabled={disabled}
        data-testid={inputTestId}
      />
      {after ? unit : null}
    </div>
  );
}
