import { assertValidAttendanceRules, DEFAULT_ATTENDANCE_RULES, REGISTER_MODE_TIMEOUT_SECONDS, type AttendanceRules } from '@rollcall/domain';

export const ATTENDANCE_SETTINGS = Symbol('ATTENDANCE_SETTINGS');

export interface AttendanceSettings {
  rules: AttendanceRules;
  /** how long register mode waits for a card */
  registerModeTimeoutSeconds: number;
  /** how often the sweeper ends register modes whose time is up */
  registerModeSweepMs: number;
  /** how often open days past the limit are flagged */
  openDaySweepMs: number;
}

const numberFrom = (env: NodeJS.ProcessEnv, name: string, fallback: number) => (env[name] === undefined || env[name] === '' ? fallback : Number(env[name]));

/**
 * The attendance rules of this deployment (docs/adr/0013): defaults, or ROLLCALL_ATTENDANCE_*
 * variables, checked at start-up (attendance.rules_invalid names the broken one).
 */
export function attendanceSettingsFrom(env: NodeJS.ProcessEnv = process.env): AttendanceSettings {
  const rules = assertValidAttendanceRules({
    duplicateWindowSeconds: numberFrom(env, 'ROLLCALL_ATTENDANCE_DUPLICATE_WINDOW_SECONDS', DEFAULT_ATTENDANCE_RULES.duplicateWindowSeconds),
    clockSkewLimitSeconds: numberFrom(env, 'ROLLCALL_ATTENDANCE_CLOCK_SKEW_LIMIT_SECONDS', DEFAULT_ATTENDANCE_RULES.clockSkewLimitSeconds),
    twoDoorsWindowSeconds: numberFrom(env, 'ROLLCALL_ATTENDANCE_TWO_DOORS_WINDOW_SECONDS', DEFAULT_ATTENDANCE_RULES.twoDoorsWindowSeconds),
    openDayLimitHours: numberFrom(env, 'ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS', DEFAULT_ATTENDANCE_RULES.openDayLimitHours),
  });
  const registerModeTimeoutSeconds = numberFrom(env, 'ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS', REGISTER_MODE_TIMEOUT_SECONDS.default);
  const { min, max } = REGISTER_MODE_TIMEOUT_SECONDS;
  if (!Number.isInteger(registerModeTimeoutSeconds) || registerModeTimeoutSeconds < min || registerModeTimeoutSeconds > max) {
    throw new Error(`ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS must be a whole number from ${min} to ${max}`);
  }
  return { rules, registerModeTimeoutSeconds, registerModeSweepMs: numberFrom(env, 'ROLLCALL_REGISTER_MODE_SWEEP_MS', 2000), openDaySweepMs: numberFrom(env, 'ROLLCALL_OPEN_DAY_SWEEP_MS', 60_000) };
}
