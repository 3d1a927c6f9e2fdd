import { useState } from 'react'

/**
 * A text field validated on blur and revalidated on change (the spec's form mode): its error shows once the field
 * was left (or a submit was tried), then follows each keystroke. `valid` is known all along, for the submit button.
 */
export function useValidatedField(initial: string, validate: (value: string) => string | undefined) {
  const [value, setValue] = useState(initial)
  const [validated, setValidated] = useState(false)
  const error = validate(value)
  return {
    value,
    setValue,
    valid: error === undefined,
    error: validated ? error : undefined,
    onBlur: () => setValidated(true),
    /** Shows the error now (a submit); true when the value is valid. */
    check: () => {
      setValidated(true)
      return error === undefined
    },
  }
}

export type ValidatedField = ReturnType<typeof useValidatedField>
