import { useCallback, useState } from 'react';
import { useFieldErrors } from './use-field-errors';

type TextKeys<Values> = { [Name in keyof Values]: Values[Name] extends string ? Name : never }[keyof Values];

/** What a CountedTextField or DescriptionField takes to show and change one field of a form. */
export interface TextFieldBinding {
  value: string;
  onValueChange: (value: string) => void;
  errors?: string[];
}

/**
 * A form's values with their server errors (useFieldErrors): changing a field clears its errors, so
 * every field is one `change` (or, for a text field, one spread of `textField(name)`) instead of a
 * state and a handler of its own.
 */
export function useFormFields<Values extends Record<string, unknown>, Field extends keyof Values & string>(initial: Values, formFields: readonly Field[]) {
  const [values, setValues] = useState(initial);
  const { errors, clearErrors, showServerErrors } = useFieldErrors(formFields);

  const change = useCallback(
    <Name extends Field>(name: Name, value: Values[Name]) => {
      setValues((current) => ({ ...current, [name]: value }));
      clearErrors(name);
    },
    [clearErrors],
  );

  const textField = (name: Field & TextKeys<Values>): TextFieldBinding => ({
    value: values[name] as string,
    onValueChange: (value) => change(name, value as Values[typeof name]),
    errors: errors[name],
  });

  return { values, errors, change, textField, showServerErrors };
}
