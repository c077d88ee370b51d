/** A multi-line text input styled as the text inputs, its message tied to it (`<id>-msg`); no texts of its own, so any area may use it. */
import type { TextareaHTMLAttributes } from 'react';

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'> & {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
};

export function TextArea({ id, value, onChange, invalid, ...rest }: TextAreaProps) {
  return (
    <textarea
      id={id}
      name={id}
      className="text-input console-text-area"
      value={value}
      aria-invalid={invalid || undefined}
      aria-describedby={`${id}-msg`}
      onChange={(e) => onChange(e.target.value)}
      {...rest}
    />
  );
}
