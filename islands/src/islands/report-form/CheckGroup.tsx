// A checkbox group with ALL (tag, warehouse, area, payment, brand, category): a fieldset whose
// legend names it, ALL first, then the options; the rules live in checks.ts.
import { useId } from 'react';
import { toggleAll, toggleOption, type Choice } from './checks';
import * as css from './styles';

export interface CheckOption {
  value: number;
  label: string;
}

export interface CheckGroupProps {
  legend: string;
  options: readonly CheckOption[];
  choice: Choice;
  onChange: (next: Choice) => void;
  error?: string | undefined;
  className?: string;
}

export function CheckGroup({ legend, options, choice, onChange, error, className = 'field full' }: CheckGroupProps) {
  const id = useId();
  const values = options.map((o) => o.value);
  const errorId = `${id}-error`;
  return (
    <fieldset
      className={error ? `${className} has-error` : className}
      style={css.checkGroup}
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend style={css.legend}>{legend}</legend>
      <div style={css.checkRow}>
        <label style={css.check}>
          <input
            type="checkbox"
            checked={choice.all}
            onChange={(e) => onChange(toggleAll(values, e.target.checked))}
          />
          ALL
        </label>
        {options.map((o) => (
          <label key={o.value} style={css.check}>
            <input
              type="checkbox"
              checked={choice.selected.includes(o.value)}
              onChange={(e) => onChange(toggleOption(choice, values, o.value, e.target.checked))}
            />
            {o.label}
          </label>
        ))}
      </div>
      {error ? (
        <span id={errorId} className="field-error">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
