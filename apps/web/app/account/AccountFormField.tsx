import { useId, type InputHTMLAttributes } from "react";

export interface AccountFormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  errors?: string[];
}

/** A labelled input with its errors announced and linked by aria-describedby. */
export function AccountFormField({ label, errors = [], id, ...inputProps }: AccountFormFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-errors`;
  return (
    <div className="form-field">
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} aria-invalid={errors.length > 0 ? true : undefined} aria-describedby={errors.length > 0 ? errorId : undefined} {...inputProps} />
      {errors.length > 0 ? (
        <ul id={errorId} className="form-field__errors">
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function FormGeneralErrors({ errors }: { errors: string[] }) {
  if (errors.length === 0) return null;
  return (
    <div role="alert" className="form-general-errors">
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}
