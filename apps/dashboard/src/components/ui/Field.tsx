import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react'
import './field.css'

interface FieldFrameProps {
  id: string
  label: ReactNode
  hint?: ReactNode
  error?: ReactNode
  /** Something placed at the right of the label row (e.g. a 'Generate' button). */
  labelAside?: ReactNode
  children: ReactNode
}

/** Label, control, hint and error laid out the same way for every form control. */
function FieldFrame({ id, label, hint, error, labelAside, children }: FieldFrameProps) {
  return (
    <div className="field">
      <div className="field-label-row">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        {labelAside}
      </div>
      {children}
      {hint && !error ? (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  )
}

function describedBy(id: string, hint: ReactNode, error: ReactNode, extra?: string) {
  return [error ? `${id}-error` : hint ? `${id}-hint` : null, extra].filter(Boolean).join(' ') || undefined
}

type Common = Omit<FieldFrameProps, 'id' | 'children'>

export interface TextFieldProps extends Common, Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> {
  /** Content shown inside the input's right edge (e.g. a show/hide button). */
  trailing?: ReactNode
  ref?: Ref<HTMLInputElement>
}

export function TextField({ label, hint, error, labelAside, trailing, id: idProp, className, ...input }: TextFieldProps) {
  const autoId = useId()
  const id = idProp ?? autoId
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} labelAside={labelAside}>
      <div className={['input-wrap', trailing ? 'has-trailing' : null].filter(Boolean).join(' ')}>
        <input
          {...input}
          id={id}
          className={['input', className].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error, input['aria-describedby'])}
        />
        {trailing ? <div className="input-trailing">{trailing}</div> : null}
      </div>
    </FieldFrame>
  )
}

export interface SelectFieldProps extends Common, SelectHTMLAttributes<HTMLSelectElement> {}

export function SelectField({ label, hint, error, labelAside, id: idProp, className, children, ...select }: SelectFieldProps) {
  const autoId = useId()
  const id = idProp ?? autoId
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} labelAside={labelAside}>
      <select
        {...select}
        id={id}
        className={['input', 'select', className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      >
        {children}
      </select>
    </FieldFrame>
  )
}

export interface TextAreaFieldProps extends Common, TextareaHTMLAttributes<HTMLTextAreaElement> {}

export function TextAreaField({ label, hint, error, labelAside, id: idProp, className, ...area }: TextAreaFieldProps) {
  const autoId = useId()
  const id = idProp ?? autoId
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} labelAside={labelAside}>
      <textarea
        {...area}
        id={id}
        className={['input', 'textarea', className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
    </FieldFrame>
  )
}

/** A bare select for tables and toolbars, where the label is given as aria-label. */
export function Select({ className, ...select }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...select} className={['input', 'select', 'select-compact', className].filter(Boolean).join(' ')} />
}
