import { DomainError } from '../shared';

/**
 * The configurable numbers of turning scans into attendance (docs/adr/0013). They travel in the
 * commands, so the deciders stay pure and a deployment (or later an organization) can set its own.
 */
export interface AttendanceRules {
  /** a scan of a card within this many seconds of that card's previous scan is kept but counts nothing */
  duplicateWindowSeconds: number;
  /** a device clock further than this from the server's is flagged, and its time corrected by the offset */
  clockSkewLimitSeconds: number;
  /** the same card at two different doors within this many seconds is flagged (a shared or copied card) */
  twoDoorsWindowSeconds: number;
  /** an arrival without a departure for this long is flagged, and the card's next scan is a new arrival */
  openDayLimitHours: number;
}

export const DEFAULT_ATTENDANCE_RULES: AttendanceRules = {
  duplicateWindowSeconds: 60,
  clockSkewLimitSeconds: 120,
  twoDoorsWindowSeconds: 300,
  openDayLimitHours: 16,
};

/**
 * `openDayLimitHours` stays below a day: a scan is decided on the account's day and the day before
 * (attendance-day.ts), so a day open for longer than that could not be seen any more.
 */
export const ATTENDANCE_RULE_LIMITS: Record<keyof AttendanceRules, { min: number; max: number }> = {
  duplicateWindowSeconds: { min: 0, max: 3600 },
  clockSkewLimitSeconds: { min: 1, max: 86_400 },
  twoDoorsWindowSeconds: { min: 0, max: 3600 },
  openDayLimitHours: { min: 1, max: 23 },
};

/** Every broken bound at once, keyed by rule name: the API checks its configuration with it at start-up. */
export function assertValidAttendanceRules(rules: AttendanceRules): AttendanceRules {
  const fields: Record<string, string[]> = {};
  for (const [name, { min, max }] of Object.entries(ATTENDANCE_RULE_LIMITS)) {
    const value = rules[name as keyof AttendanceRules];
    if (!Number.isInteger(value) || value < min || value > max) fields[name] = [`${name} must be a whole number from ${min} to ${max}`];
  }
  const [field] = Object.keys(fields);
  if (field) throw new DomainError('attendance.rules_invalid', fields[field][0], field, fields);
  return rules;
}
