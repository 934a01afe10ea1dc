import type { FactoryProvider } from '@nestjs/common';
import type { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/tokens';

export const ATTENDANCE_SETTINGS = Symbol('ATTENDANCE_SETTINGS');

/**
 * The attendance rules of this deployment (docs/adr/0013) and the timings of register mode and the
 * open-day sweeper: the ROLLCALL_ATTENDANCE_*, ROLLCALL_REGISTER_MODE_* and ROLLCALL_OPEN_DAY_SWEEP_MS
 * settings of the one configuration, validated at start with the rest (platform/config/app-config.ts).
 */
export type AttendanceSettings = AppConfig['attendance'];

export const attendanceSettingsProvider: FactoryProvider<AttendanceSettings> = {
  provide: ATTENDANCE_SETTINGS,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => config.attendance,
};
