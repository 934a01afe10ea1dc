import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ERROR_CODES, ZFieldRule, type TFieldRule } from '@rollcall/contracts';
import { getApiError, splitFieldErrors } from '../api/api-error';
import { translateFieldRule, translateServerMessage } from './server-messages';
import { useSnackbar } from './snackbar/snackbar-context';

const knownCodes = new Set<string>(ERROR_CODES);

/** the answer's `error.rules` by field, each field's in the order of its messages (well-formed ones only) */
function rulesByField(error: unknown): Map<string, TFieldRule[]> {
  const raw = (error as { data?: { apiError?: { rules?: unknown } } } | null)?.data?.apiError?.rules;
  const byField = new Map<string, TFieldRule[]>();
  if (!Array.isArray(raw)) return byField;
  for (const entry of raw) {
    const parsed = ZFieldRule.safeParse(entry);
    if (!parsed.success) continue;
    const list = byField.get(parsed.data.field) ?? [];
    list.push(parsed.data);
    byField.set(parsed.data.field, list);
  }
  return byField;
}

/**
 * The error with its field messages in the console's language: by the rule the API names beside
 * each message (its code and parameters, `error.rules`), else a message that is the error's own (a
 * taken username: code `account.username_taken`) by its code, else the message's shape
 * (server-messages.ts). Everything else of the error stays as it was.
 */
export function translateFieldErrors(error: unknown, t: TFunction, language: string): unknown {
  const apiError = getApiError(error);
  if (!apiError?.fields || !Object.keys(apiError.fields).length) return error;
  // the server's English message names the value (a slug, a title); the catalogue's text of a code
  // is general: in English the server's own words are kept
  const english = language === 'en';
  const byCode = !english && knownCodes.has(apiError.code) && apiError.code !== 'request.invalid';
  const rules = rulesByField(error);
  const fields = Object.fromEntries(
    Object.entries(apiError.fields).map(([name, messages]) => [
      name,
      messages.map((message, index) => {
        const rule = rules.get(name)?.[index];
        const byRule = !english && rule?.message === message ? translateFieldRule(rule, t) : null;
        if (byRule !== null) return byRule;
        return byCode && message === apiError.message ? t(`errors.${apiError.code}`, { defaultValue: message }) : translateServerMessage(message, t);
      }),
    ]),
  );
  const data = (error as { data: Record<string, unknown> }).data;
  return { ...(error as object), data: { ...data, apiError: { ...(data.apiError as object), fields } } };
}

/**
 * A form's server errors, placed under its fields (spec: 'Server errors appear under each field'):
 * `showServerErrors` places what the server named and shows the rest as an error notice; editing a
 * field clears its errors with `clearErrors`.
 */
export function useFieldErrors<Field extends string>(formFields: readonly Field[]) {
  const { t, i18n } = useTranslation();
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
      const { fields, notice } = splitFieldErrors(translateFieldErrors(error, t, i18n.resolvedLanguage ?? i18n.language), formFields, t);
      setErrors(fields);
      if (notice) notify(notice, 'error');
    },
    [formFields, t, i18n, notify],
  );

  return { errors, clearErrors, showServerErrors };
}
