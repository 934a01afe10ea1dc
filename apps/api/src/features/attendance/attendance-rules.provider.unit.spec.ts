import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/tokens';
import { ATTENDANCE_SETTINGS, attendanceSettingsProvider, type AttendanceSettings } from './attendance-rules.provider';

describe('the attendance settings provider', () => {
  it('gives the attendance settings of the configuration the app was given', async () => {
    const config = loadConfig({ ROLLCALL_DATA_DIR: '/tmp/rollcall-attendance-settings-test', ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS: '12', ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS: '45' });
    @Module({ providers: [{ provide: APP_CONFIG, useValue: config }, attendanceSettingsProvider] })
    class SettingsModule {}
    const app = await NestFactory.createApplicationContext(SettingsModule, { logger: false });
    try {
      const settings = app.get<AttendanceSettings>(ATTENDANCE_SETTINGS);
      expect(settings.rules.openDayLimitHours).toBe(12);
      expect(settings.registerModeTimeoutSeconds).toBe(45);
      expect(settings).toBe(config.attendance);
    } finally {
      await app.close();
    }
  });
});
