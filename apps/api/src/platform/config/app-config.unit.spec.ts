import { ATTENDANCE_RULE_LIMITS, DEFAULT_ATTENDANCE_RULES, REGISTER_MODE_TIMEOUT_SECONDS } from '@rollcall/domain';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './app-config';

const base = { ROLLCALL_DATA_DIR: '/tmp/rollcall-config-test' };
const load = (settings: Record<string, string>) => loadConfig({ ...base, ...settings });

/** the message loadConfig throws, or null when the settings are accepted */
function refusal(settings: Record<string, string>): string | null {
  try {
    load(settings);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('the attendance settings of the configuration', () => {
  it('default to the rules of docs/adr/0013, 120 s of register mode, sweeps every 2 s and 60 s', () => {
    expect(load({}).attendance).toEqual({
      rules: { duplicateWindowSeconds: 60, clockSkewLimitSeconds: 120, twoDoorsWindowSeconds: 300, openDayLimitHours: 16 },
      registerModeTimeoutSeconds: 120,
      registerModeSweepMs: 2000,
      openDaySweepMs: 60_000,
    });
    expect(load({}).attendance.rules).toEqual(DEFAULT_ATTENDANCE_RULES);
  });

  it('read every variable, an empty one as unset', () => {
    const config = load({
      ROLLCALL_ATTENDANCE_DUPLICATE_WINDOW_SECONDS: '30',
      ROLLCALL_ATTENDANCE_CLOCK_SKEW_LIMIT_SECONDS: '600',
      ROLLCALL_ATTENDANCE_TWO_DOORS_WINDOW_SECONDS: '0',
      ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS: '',
      ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS: '45',
      ROLLCALL_REGISTER_MODE_SWEEP_MS: '500',
      ROLLCALL_OPEN_DAY_SWEEP_MS: '30000',
    });
    expect(config.attendance).toEqual({
      rules: { duplicateWindowSeconds: 30, clockSkewLimitSeconds: 600, twoDoorsWindowSeconds: 0, openDayLimitHours: 16 },
      registerModeTimeoutSeconds: 45,
      registerModeSweepMs: 500,
      openDaySweepMs: 30_000,
    });
  });

  const bounded = [
    ['ROLLCALL_ATTENDANCE_DUPLICATE_WINDOW_SECONDS', ATTENDANCE_RULE_LIMITS.duplicateWindowSeconds],
    ['ROLLCALL_ATTENDANCE_CLOCK_SKEW_LIMIT_SECONDS', ATTENDANCE_RULE_LIMITS.clockSkewLimitSeconds],
    ['ROLLCALL_ATTENDANCE_TWO_DOORS_WINDOW_SECONDS', ATTENDANCE_RULE_LIMITS.twoDoorsWindowSeconds],
    ['ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS', ATTENDANCE_RULE_LIMITS.openDayLimitHours],
    ['ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS', REGISTER_MODE_TIMEOUT_SECONDS],
  ] as const;

  it.each(bounded)('take %s from its lowest to its highest whole number, the domain bounds', (name, { min, max }) => {
    expect(refusal({ [name]: String(min) })).toBeNull();
    expect(refusal({ [name]: String(max) })).toBeNull();
  });

  it.each(bounded)('refuse %s below, above, between whole numbers or not a number, naming it and the rule', (name, { min, max }) => {
    const expected = `Invalid configuration:\n- ${name}: ${name} must be a whole number from ${min} to ${max}`;
    for (const value of [String(min - 1), String(max + 1), `${min}.5`, 'soon']) expect(refusal({ [name]: value })).toBe(expected);
  });

  it.each(['ROLLCALL_REGISTER_MODE_SWEEP_MS', 'ROLLCALL_OPEN_DAY_SWEEP_MS'])('refuse a %s under 10 ms or not a whole number', (name) => {
    const expected = `Invalid configuration:\n- ${name}: ${name} must be a whole number of milliseconds, at least 10`;
    for (const value of ['9', '0', '-5', '2.5', 'often']) expect(refusal({ [name]: value })).toBe(expected);
    expect(refusal({ [name]: '10' })).toBeNull();
  });

  it('name every broken setting at once', () => {
    const message = refusal({ ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS: '24', ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS: '5' }) ?? '';
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      '- ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS: ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS must be a whole number from 1 to 23',
      '- ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS: ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS must be a whole number from 10 to 600',
    ]);
  });
});
