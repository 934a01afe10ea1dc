import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { splitFieldErrors } from '../api/api-error';
import { useSnackbar } from './snackbar/snackbar-context';

/**
 * A form's server errors, placed under its fields (spec: 'Server errors appear under each field'):
 * `showServerErrors` places what the server named and shows the rest as an error notice; editing a
 * field clears its errors with `clearErrors`.
 */
export function useFieldErrors<Field extends string>(formFields: readonly Field[]) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const [errors, setErrors] = useState<Partial<Record<Field, string[]>>>({});

  const clearErrors = useCallback(
    (...names: Field[]) =>
      setErrors((current) => {
        if (!names.some((name) => current[name])) return current;
        const next = { ...current };
        for (const name of names) delete next[name];
        return next;
      }),
    [],
  );

  const showServerErrors = useCallback(
    (error: unknown) => {
      const { fields, notice } = splitFieldErrors(error, formFields, t);
      setErrors(fields);
      if (notice) notify(notice, 'error');
    },
    [formFields, t, notify],
  );

  return { errors, clearErrors, showServerErrors };
}
